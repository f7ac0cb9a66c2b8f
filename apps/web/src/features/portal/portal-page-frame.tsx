import { useLoaderData } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';

export interface PortalPageFrameData {
  id: string;
  title: string;
  description: string;
}

/** Portal page frame: title and purpose as the API serves them to a user allowed to see the page. */
export function Component() {
  const frame = useLoaderData() as PortalPageFrameData;
  return <PageHeader title={frame.title} description={frame.description} />;
}
