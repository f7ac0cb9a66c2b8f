import { Link, useActionData } from 'react-router';
import { getSchoolHome, type SchoolHome as SchoolHomeData } from '@portale/shared/adhesions';
import { can, canSome, type SessionUser } from '@portale/shared/auth';
import { getPage, href, evaluateAccess } from '@portale/shared/pages';
import { SCHOOL_LEVEL_LABELS, TEACHER_REVIEW_STATE_LABELS } from '@portale/shared/registry';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { WithdrawalForm, WITHDRAW_INTENT } from '../../components/withdrawal-form.tsx';
import type { FormResult } from '../../lib/form-data.ts';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatCount, formatDate } from '../../lib/format.ts';

const KIND_LABELS: Record<string, string> = {
  insegnante: 'Insegnante',
  educatore: 'Educatore/educatrice',
  altro: 'Altro',
};

/** Principals and first contacts: they hold the adhesion of their own institute only (staff read every one). */
export function isSchoolPerson(user: SessionUser | null): boolean {
  return canSome(user, 'read:adhesion') && !can(user, 'read:adhesion');
}

export type SchoolHomeResult =
  { home: SchoolHomeData; problem: null } | { home: null; problem: string | null };

/** The school's home data; an account not linked to an institute gets none, a failure a message. */
export async function loadSchoolHome(signal: AbortSignal, istituto?: number): Promise<SchoolHomeResult> {
  try {
    // A person of several institutes: `/portale?istituto=ID` (the adhesion page lists them; issue 35, item 1).
    return {
      home: await callApi(
        getSchoolHome,
        { query: istituto && Number.isInteger(istituto) && istituto > 0 ? { istituto } : {} },
        { signal },
      ),
      problem: null,
    };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    if (error.status === 404) return { home: null, problem: null };
    return {
      home: null,
      problem: 'I dati del tuo istituto non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

/** `/portale` for a principal or first contact: their institute, what to do next, its plessi and teachers. */
export function SchoolHome({ home, user }: { home: SchoolHomeData; user: SessionUser }) {
  const { institute, nextStep, schoolSites, teachers } = home;
  const participating = schoolSites.filter((s) => s.participating);
  const institutePage = getPage('portal.institute');
  const mayOpenInstitute = evaluateAccess(institutePage, user).kind === 'allow';
  const result = useActionData<(FormResult & { intent?: string }) | undefined>();
  const withdrawn = result?.intent === WITHDRAW_INTENT && result.ok;
  // The principal of an active institute may withdraw it (product §5); the API checks it again.
  const mayWithdraw =
    institute.adhesionState === 'attivo' &&
    home.viewerRole === 'principal' &&
    can(user, 'manage:adhesion', { ownerUserIds: [user.id] });
  return (
    <section aria-labelledby="il-tuo-istituto" className="mb-5" data-testid="school-home">
      <h2 id="il-tuo-istituto" className="h4">
        Il tuo istituto
      </h2>
      <div className="card card-bg mb-4">
        <div className="card-body">
          <h3 className="h5 mb-1">
            {mayOpenInstitute ? (
              <Link to={href('portal.institute', { instituteId: institute.id })}>{institute.name}</Link>
            ) : (
              institute.name
            )}
          </h3>
          <p className="mb-2">
            Codice meccanografico {institute.ministryCode} · {institute.municipalityName} (
            {institute.province}) ·{' '}
            {home.viewerRole === 'principal' ? 'sei il dirigente scolastico' : 'sei il referente d’istituto'}
          </p>
          <p className="mb-2">
            Stato dell’adesione: <AdhesionBadge state={institute.adhesionState} />
            {institute.adhesionStateChangedAt && (
              <span className="ms-2 small">dal {formatDate(institute.adhesionStateChangedAt)}</span>
            )}
          </p>
          <p className="mb-0" data-testid="school-next-step">
            <strong>Prossimo passo:</strong> {nextStep.message}{' '}
            {nextStep.link && <Link to={nextStep.link.to}>{nextStep.link.label}</Link>}
          </p>
          {mayWithdraw && <WithdrawalForm result={result} instituteId={institute.id} />}
          {withdrawn && !mayWithdraw && <FormMessage message={result.message} tone="success" />}
        </div>
      </div>

      <h3 className="h5">Plessi</h3>
      <p>
        {formatCount(participating.length, 'plesso partecipa', 'plessi partecipano')} al programma su{' '}
        {formatCount(schoolSites.length, 'plesso', 'plessi')} dell’istituto.
      </p>
      {schoolSites.length > 0 && (
        // Scrolls sideways on a phone: a named region that takes the focus, so the keyboard scrolls it too.
        <div className="table-responsive mb-4" tabIndex={0} role="region" aria-label="Plessi dell’istituto">
          <table className="table table-sm">
            <caption className="visually-hidden">
              Plessi dell’istituto con il numero di insegnanti registrati
            </caption>
            <thead>
              <tr>
                <th scope="col">Plesso</th>
                <th scope="col">Grado</th>
                <th scope="col">Comune</th>
                <th scope="col">Partecipa</th>
                <th scope="col" className="text-end">
                  Insegnanti registrati
                </th>
              </tr>
            </thead>
            <tbody>
              {schoolSites.map((s) => (
                <tr key={s.id}>
                  <th scope="row" className="fw-normal">
                    {s.name} <span className="small text-muted">({s.ministryCode})</span>
                  </th>
                  <td>{SCHOOL_LEVEL_LABELS[s.schoolLevel]}</td>
                  <td>{s.municipalityName}</td>
                  <td>{s.participating ? 'Sì' : 'No'}</td>
                  <td className="text-end">{s.teacherCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h3 className="h5">Insegnanti ed educatori</h3>
      {teachers.total === 0 ? (
        <p>Nessun insegnante o educatore si è ancora registrato nei plessi dell’istituto.</p>
      ) : (
        <>
          <p>
            {formatCount(teachers.total, 'persona registrata', 'persone registrate')} nei plessi dell’istituto
            {teachers.total > teachers.items.length
              ? `; ecco le prime ${teachers.items.length} in ordine alfabetico`
              : ''}
            .
          </p>
          <ul>
            {teachers.items.map((t) => (
              <li key={t.id}>
                {t.lastName} {t.firstName} – {KIND_LABELS[t.kind] ?? t.kind}, {t.schoolSiteName} (
                {TEACHER_REVIEW_STATE_LABELS[t.reviewState].toLowerCase()})
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
