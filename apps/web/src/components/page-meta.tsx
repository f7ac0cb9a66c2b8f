import { useEffect } from 'react';

/** Sets the document title and meta description of a page. */
export function PageMeta({ title, description }: { title: string; description: string }) {
  useEffect(() => {
    document.title = title === 'Portale Scuole' ? title : `${title} | Portale Scuole`;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
  return null;
}
