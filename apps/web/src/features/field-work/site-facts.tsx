import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DetectorSiteSummary } from '@portale/shared/field-work';
import { href } from '@portale/shared/pages';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { formatDateTime } from '../../lib/format.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

export function addressOf(
  site: Pick<DetectorSiteSummary, 'address' | 'postalCode' | 'municipalityName' | 'province'>,
): string {
  return [
    site.address,
    [site.postalCode, site.municipalityName].filter(Boolean).join(' '),
    `(${site.province})`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The facts of a plesso a detector needs, with the links to its teachers and visits. */
export function SiteFacts({ site }: { site: DetectorSiteSummary }) {
  return (
    <>
      <dl className="row" data-testid="site-facts">
        <Fact label="Codice meccanografico">{site.ministryCode}</Fact>
        <Fact label="Grado">{SCHOOL_LEVEL_LABELS[site.schoolLevel]}</Fact>
        <Fact label="Istituto">{site.instituteName}</Fact>
        <Fact label="Indirizzo">{addressOf(site)}</Fact>
        <Fact label="Rilevatore">
          {site.detector ? (
            `${site.detector.firstName} ${site.detector.lastName}`
          ) : (
            <span className="text-muted">non assegnato</span>
          )}
        </Fact>
        <Fact label="Insegnanti">{site.teacherCount}</Fact>
        <Fact label="Prossima visita">
          {site.nextVisitAt ? formatDateTime(site.nextVisitAt) : <span className="text-muted">nessuna</span>}
        </Fact>
      </dl>
      <ul className="list-inline">
        <li className="list-inline-item">
          <Link to={href('portal.site-visits', { siteId: site.id })}>Visite al plesso</Link>
        </li>
        <li className="list-inline-item">
          <Link to={href('portal.site-teachers', { siteId: site.id })}>Insegnanti del plesso</Link>
        </li>
      </ul>
    </>
  );
}
