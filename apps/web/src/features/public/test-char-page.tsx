import { PageHeader } from '../../components/page-header.tsx';
import { apiOrigin, BUILD_ID } from '../../lib/config.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';

const SAMPLE = 'àèéìòù ÀÈÉÌÒÙ – «perché», “città”, l’Università, Forlì-Cesena, Sant’Agata de’ Goti, €';

/** Diagnostics: build id, API origin, a sample of Italian accented characters. */
export function Component() {
  const page = useCurrentPage();
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      <dl>
        <dt>Versione (build)</dt>
        <dd data-testid="build-id">
          <code>{BUILD_ID}</code>
        </dd>
        <dt>API</dt>
        <dd data-testid="api-origin">
          <code>{apiOrigin()}</code>
        </dd>
        <dt>Caratteri accentati</dt>
        <dd data-testid="char-sample" lang="it">
          {SAMPLE}
        </dd>
      </dl>
    </div>
  );
}
