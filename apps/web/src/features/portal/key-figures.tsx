import { Card, CardBody, CardTitle } from 'design-react-kit';
import { Link } from 'react-router';
import type { DashboardSummary } from '@portale/shared/dashboard';
import { href, type PageId } from '@portale/shared/pages';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  TEACHER_REVIEW_STATE_LABELS,
  TEACHER_REVIEW_STATES,
} from '@portale/shared/registry';
import { formatDateTime, formatNumber } from '../../lib/format.ts';

/** A list address with its filters (`/portale/istituti?adhesionState=attivo`). */
function listHref(pageId: PageId, filters: Record<string, string> = {}): string {
  const query = new URLSearchParams(filters).toString();
  return query ? `${href(pageId)}?${query}` : href(pageId);
}

interface Figure {
  label: string;
  value: number;
  to: string;
  /** What the number counts, for screen readers (the label says it in context). */
  counts: string;
}

/** Label and figure pairs; each figure links to the list it counts. */
function FigureList({ figures, testId }: { figures: Figure[]; testId: string }) {
  return (
    <dl className="key-figures mb-0" data-testid={testId}>
      {figures.map((f) => (
        <div
          key={f.to}
          className="d-flex justify-content-between align-items-baseline gap-3 border-bottom py-1"
        >
          <dt className="fw-normal">{f.label}</dt>
          <dd className="mb-0 text-end">
            <Link to={f.to} className="fw-semibold" data-figure={f.value}>
              {formatNumber(f.value)}
              <span className="visually-hidden"> {f.counts}</span>
            </Link>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function FigureCard({
  id,
  title,
  total,
  children,
}: {
  id: string;
  title: string;
  total?: Figure;
  children: React.ReactNode;
}) {
  return (
    <div className="col-md-6 col-xl-3 mb-3">
      <Card className="card-bg h-100" tag="section" aria-labelledby={id}>
        <CardBody>
          <CardTitle tag="h3" className="h5" id={id}>
            {title}
          </CardTitle>
          {total && (
            <p className="h2 mb-3">
              <Link to={total.to} data-figure={total.value} data-testid={`${id}-totale`}>
                {formatNumber(total.value)}
                <span className="visually-hidden"> {total.counts}</span>
              </Link>
              <span className="d-block small fw-normal text-muted mt-1">{total.label}</span>
            </p>
          )}
          {children}
        </CardBody>
      </Card>
    </div>
  );
}

/** The staff home's key figures (GET /api/dashboard/summary), each a link into the filtered list. */
export function KeyFigures({ summary }: { summary: DashboardSummary }) {
  const institutes = ADHESION_STATES.map((state) => ({
    label: ADHESION_STATE_LABELS[state],
    value: summary.institutesByAdhesionState[state] ?? 0,
    to: listHref('portal.institutes', { adhesionState: state }),
    counts: `istituti in stato «${ADHESION_STATE_LABELS[state]}»`,
  }));
  const teachers = TEACHER_REVIEW_STATES.map((state) => ({
    label: TEACHER_REVIEW_STATE_LABELS[state],
    value: summary.teachersByReviewState[state] ?? 0,
    to: listHref('portal.teachers', { reviewState: state }),
    counts: `insegnanti ed educatori con revisione «${TEACHER_REVIEW_STATE_LABELS[state]}»`,
  }));
  const awaiting: Figure[] = [
    {
      label: 'Adesioni degli istituti',
      value: summary.awaitingReview.adesioni,
      to: href('portal.reviews', { reviewType: 'adesioni' }),
      counts: 'adesioni da revisionare',
    },
    {
      label: 'Registrazioni di insegnanti ed educatori',
      value: summary.awaitingReview.insegnanti,
      to: href('portal.reviews', { reviewType: 'insegnanti' }),
      counts: 'registrazioni da revisionare',
    },
  ];
  return (
    <section aria-labelledby="cifre" className="mb-5" data-testid="key-figures">
      <h2 id="cifre" className="h4">
        Il programma in cifre
      </h2>
      <p className="small text-muted">
        Dati aggiornati al {formatDateTime(summary.at)}. Ogni numero apre l’elenco corrispondente.
      </p>
      <div className="row">
        <FigureCard
          id="cifre-istituti"
          title="Istituti"
          total={{
            label: 'istituti in anagrafe',
            value: summary.institutesTotal,
            to: href('portal.institutes'),
            counts: 'istituti in anagrafe',
          }}
        >
          <h4 className="h6 mt-2">Per stato di adesione</h4>
          <FigureList figures={institutes} testId="cifre-istituti-stati" />
        </FigureCard>
        <FigureCard
          id="cifre-plessi"
          title="Plessi"
          total={{
            label: 'plessi partecipanti',
            value: summary.participatingSchoolSites,
            to: listHref('portal.sites', { participating: 'true' }),
            counts: 'plessi partecipanti',
          }}
        >
          <FigureList
            testId="cifre-plessi-tutti"
            figures={[
              {
                label: 'Plessi in anagrafe',
                value: summary.schoolSitesTotal,
                to: href('portal.sites'),
                counts: 'plessi in anagrafe',
              },
            ]}
          />
        </FigureCard>
        <FigureCard
          id="cifre-insegnanti"
          title="Insegnanti ed educatori"
          total={{
            label: 'registrati',
            value: summary.teachersTotal,
            to: href('portal.teachers'),
            counts: 'insegnanti ed educatori registrati',
          }}
        >
          <h4 className="h6 mt-2">Per stato della revisione</h4>
          <FigureList figures={teachers} testId="cifre-insegnanti-stati" />
        </FigureCard>
        <FigureCard id="cifre-revisioni" title="In attesa di revisione">
          <FigureList figures={awaiting} testId="cifre-revisioni-code" />
        </FigureCard>
      </div>
    </section>
  );
}
