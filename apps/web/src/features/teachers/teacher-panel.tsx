import { Button } from 'design-react-kit';
import { useEffect, useRef } from 'react';
import { Link, useFetcher } from 'react-router';
import { can } from '@portale/shared/auth';
import { href } from '@portale/shared/pages';
import { TEACHER_REVIEW_STATE_LABELS } from '@portale/shared/registry';
import { TEACHER_KIND_LABELS, type TeacherDetail } from '@portale/shared/teachers';
import { HELD_RESPONSES_INTENT, type HeldResponsesOutcome } from './held-responses-action.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { REVIEW_STATE_BADGES } from './teacher-labels.ts';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

const verified = (at: string | null) => (at ? `verificato il ${formatDateTime(at)}` : 'non verificato');

/**
 * Decision 029: the answers held out of the results since the teacher was rejected (through their
 * codes, and their own). Staff who decide reviews count them again or discard them.
 */
function HeldResponses({ teacher }: { teacher: TeacherDetail }) {
  // The page's action decides (`intent=held-responses`); the router then reloads the page's data, so
  // the count below is the server's (decision 045: a widget's mutation goes through a fetcher).
  const fetcher = useFetcher<HeldResponsesOutcome>();
  const sending = fetcher.state !== 'idle';
  const notice = fetcher.data;
  const n = teacher.heldResponses;
  return (
    <div className="mt-3" data-testid="held-responses">
      <div role="status" aria-live="polite">
        {notice && <div className={`alert alert-${notice.kind}`}>{notice.text}</div>}
      </div>
      {n > 0 && (
        <div className="alert alert-warning">
          <p>
            {n === 1 ? 'Una risposta raccolta' : `${formatNumber(n)} risposte raccolte`} con i codici di
            questo insegnante (o la sua) {n === 1 ? 'è sospesa' : 'sono sospese'} dai risultati da quando la
            registrazione è stata respinta.
          </p>
          <fetcher.Form method="post" className="d-flex flex-wrap gap-2">
            <input type="hidden" name="intent" value={HELD_RESPONSES_INTENT} />
            <input type="hidden" name="teacherId" value={teacher.id} />
            <Button
              type="submit"
              name="decision"
              value="include"
              color="primary"
              size="sm"
              disabled={sending}
            >
              Conteggia di nuovo nei risultati
            </Button>
            <Button
              type="submit"
              name="decision"
              value="discard"
              color="danger"
              outline
              size="sm"
              disabled={sending}
            >
              Scarta le risposte
            </Button>
          </fetcher.Form>
        </div>
      )}
    </div>
  );
}

/**
 * One teacher's profile, opened from the list (`?teacherId=`): the list stays below, with its filters.
 * Focus moves to the panel's heading when it opens.
 */
export function TeacherPanel({ teacher, closeHref }: { teacher: TeacherDetail; closeHref: string }) {
  const { user } = useSession();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [teacher.id]);
  const t = teacher;
  return (
    <section
      aria-labelledby="insegnante-title"
      className="mb-5 p-3 border rounded"
      data-testid="teacher-panel"
    >
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
        <h2 id="insegnante-title" className="h4" ref={heading} tabIndex={-1}>
          {t.firstName} {t.lastName}
        </h2>
        <Link to={closeHref} preventScrollReset className="btn btn-sm btn-outline-secondary">
          Chiudi la scheda
        </Link>
      </div>
      <p className="d-flex flex-wrap gap-2">
        <span className={`badge ${REVIEW_STATE_BADGES[t.reviewState]}`}>
          Registrazione: {TEACHER_REVIEW_STATE_LABELS[t.reviewState]}
        </span>
        <span className="badge bg-light text-dark border">{TEACHER_KIND_LABELS[t.kind]}</span>
        {t.userStatus === 'suspended' && <span className="badge bg-danger">Account sospeso</span>}
      </p>
      <dl className="row detail-facts mb-0">
        <Fact label="E-mail">
          <a href={`mailto:${t.email}`}>{t.email}</a> · {t.emailVerifiedAt ? 'verificata' : 'non verificata'}
        </Fact>
        <Fact label="Cellulare">
          {t.phone ? (
            `${t.phone} · ${verified(t.phoneVerifiedAt)}`
          ) : (
            <span className="text-muted">non indicato</span>
          )}
        </Fact>
        <Fact label="Plesso">
          {t.schoolSiteId ? (
            <>
              <Link to={href('portal.site', { siteId: t.schoolSiteId })}>{t.schoolSiteName}</Link> (
              {t.schoolSiteCode}) · {t.municipalityName} ({t.province}), {t.region}
            </>
          ) : (
            <span className="text-muted">non ancora scelto</span>
          )}
        </Fact>
        <Fact label="Istituto">
          {t.instituteId ? (
            <>
              <Link to={href('portal.institute', { instituteId: t.instituteId })}>{t.instituteName}</Link> (
              {t.instituteCode})
            </>
          ) : (
            <span className="text-muted">—</span>
          )}
        </Fact>
        <Fact label="Materie o ruoli">
          {t.subjects.length ? t.subjects.join(', ') : <span className="text-muted">non indicati</span>}
        </Fact>
        <Fact label="Registrato il">{formatDateTime(t.createdAt)}</Fact>
        <Fact label="Ultimo accesso">
          {t.lastLoginAt ? formatDateTime(t.lastLoginAt) : <span className="text-muted">mai</span>}
        </Fact>
        {can(user, 'read:user') && (
          <Fact label="Account">
            <Link to={href('portal.user', { userId: t.userId })}>Apri la scheda dell’utente</Link>
          </Fact>
        )}
      </dl>
      {can(user, 'decide:review') && <HeldResponses teacher={t} />}
    </section>
  );
}
