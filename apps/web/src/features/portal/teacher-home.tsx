import { Button } from 'design-react-kit';
import { useEffect, useRef, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { can, canSome, type SessionUser } from '@portale/shared/auth';
import { REDIRECTS } from '@portale/shared/pages';
import {
  ACCESS_CODE_MESSAGES,
  ACCESS_CODE_STATE_LABELS,
  accessCodeSheet,
  exportAccessCodes,
  getAccessCodeOptions,
  getCurrentSurvey,
  getMyResponse,
  listAccessCodes,
  type AccessCodeOptions,
  type AccessCodeSummary,
  type CurrentSurvey,
} from '@portale/shared/surveys';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { CreateCodesForm } from './create-codes-form.tsx';
import {
  CREATE_CODES_FETCHER,
  REVOKE_CODE_FETCHER,
  REVOKE_CODE_INTENT,
  type CreateCodesOutcome,
  type RevokeCodeOutcome,
} from './teacher-codes-action.ts';

/** Teachers and educators: they make codes for their own plesso (staff make them for any and get the staff home). */
export function isTeacher(user: SessionUser | null): boolean {
  return canSome(user, 'create:access-code') && !can(user, 'create:access-code');
}

export interface TeacherHomeData {
  options: AccessCodeOptions;
  codes: AccessCodeSummary[];
  total: number;
  /** When the teacher answered the open survey (null: not yet, or no open survey). */
  answeredAt: string | null;
  /** The survey open for teachers and educators, which they answer (decision 046), or null. */
  teacherSurvey: Pick<NonNullable<CurrentSurvey['survey']>, 'id' | 'title' | 'closesOn'> | null;
}
export type TeacherHomeResult = { home: TeacherHomeData; problem: null } | { home: null; problem: string };

/** The open survey, the teacher's codes (newest first) and whether they answered. */
export async function loadTeacherHome(signal: AbortSignal): Promise<TeacherHomeResult> {
  try {
    const [options, list, mine, current] = await Promise.all([
      callApi(getAccessCodeOptions, {}, { signal }),
      callApi(listAccessCodes, { query: { pageSize: 100, sort: '-createdAt' } } as never, { signal }),
      callApi(getMyResponse, {}, { signal }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status !== 401) return { response: null };
        throw error;
      }),
      callApi(getCurrentSurvey, {}, { signal }),
    ]);
    return {
      home: {
        options,
        codes: list.items,
        total: list.total,
        answeredAt: mine.response?.submittedAt ?? null,
        teacherSurvey: current.survey,
      },
      problem: null,
    };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      home: null,
      problem:
        'L’indagine e i tuoi codici di accesso non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

/** The last day a code works (its expiry is the midnight after it). */
const lastDay = (expiresAt: string) => formatDate(new Date(new Date(expiresAt).getTime() - 1).toISOString());

const EXPORT_QUERY = { sort: '-createdAt' };

type Notice = { kind: 'success' | 'danger' | 'info'; text: string };

async function printSheet(ids: number[], onNotice: (n: Notice) => void) {
  try {
    await downloadFile(accessCodeSheet, { query: { ids: ids.join(',') } }, undefined, {
      fallbackName: 'codici-di-accesso.pdf',
    });
    onNotice({
      kind: 'success',
      text: `Foglio dei codici scaricato (${ids.length === 1 ? '1 codice' : `${formatNumber(ids.length)} codici`}): aprilo e stampalo.`,
    });
  } catch (error) {
    onNotice({
      kind: 'danger',
      text:
        error instanceof Error
          ? error.message
          : 'Non è stato possibile scaricare il foglio. Riprova più tardi.',
    });
  }
}

function CodeRow({ code }: { code: AccessCodeSummary }) {
  const [confirming, setConfirming] = useState(false);
  // The home's one revocation fetcher (decision 045): the home shows its outcome in the notice.
  const fetcher = useFetcher<RevokeCodeOutcome | null>({ key: REVOKE_CODE_FETCHER });
  const busy = fetcher.state !== 'idle' && fetcher.formData?.get('codeId') === String(code.id);
  return (
    <tr data-testid={`code-${code.code}`}>
      <th scope="row" data-label="Codice">
        <code className="fs-6">{code.code}</code>
      </th>
      <td data-label="Classe">{code.classLabel ?? '—'}</td>
      <td data-label="Utilizzi">
        {formatNumber(code.uses)} su {formatNumber(code.maxUses)}
      </td>
      <td data-label="Valido fino al">{lastDay(code.expiresAt)}</td>
      <td data-label="Stato">{ACCESS_CODE_STATE_LABELS[code.state]}</td>
      <td data-label="Azioni">
        {code.state === 'usable' &&
          (confirming ? (
            <fetcher.Form
              method="post"
              className="d-inline-flex flex-wrap gap-2"
              onSubmit={() => setConfirming(false)}
            >
              <input type="hidden" name="intent" value={REVOKE_CODE_INTENT} />
              <input type="hidden" name="codeId" value={code.id} />
              <input type="hidden" name="code" value={code.code} />
              <Button type="submit" color="danger" size="xs">
                Sì, revoca {code.code}
              </Button>
              <Button type="button" color="secondary" outline size="xs" onClick={() => setConfirming(false)}>
                Annulla
              </Button>
            </fetcher.Form>
          ) : (
            <Button
              type="button"
              color="danger"
              outline
              size="xs"
              disabled={busy}
              onClick={() => setConfirming(true)}
              aria-label={`Revoca il codice ${code.code}`}
            >
              Revoca
            </Button>
          ))}
      </td>
    </tr>
  );
}

/**
 * `/portale` for a teacher or educator: the survey open for them to answer and the access codes of
 * their classes for the survey open for code holders (the same survey, or another: decision 046).
 */
export function TeacherHome({ home }: { home: TeacherHomeData }) {
  const { options, codes, teacherSurvey } = home;
  /** The survey the codes are made for. */
  const survey = options.surveys[0];
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const creating = useFetcher<CreateCodesOutcome>({ key: CREATE_CODES_FETCHER });
  const revoking = useFetcher<RevokeCodeOutcome | null>({ key: REVOKE_CODE_FETCHER });
  const made = creating.state === 'idle' ? creating.data?.items : undefined;
  const revoked = revoking.state === 'idle' ? revoking.data : undefined;
  // The codes just made, while the list still has them.
  const created = (made ?? []).filter((c) => codes.some((x) => x.id === c.id));
  const usable = codes.filter((c) => c.state === 'usable');
  const show = (n: Notice | null) => {
    setNotice(n);
    if (n) requestAnimationFrame(() => noticeRef.current?.focus());
  };
  // A revocation's outcome is the notice; new codes replace it with their own box.
  useEffect(() => show(revoked ?? null), [revoked]);
  useEffect(() => {
    if (made) setNotice(null);
  }, [made]);

  return (
    <section aria-labelledby="indagine-e-codici" className="mb-5" data-testid="teacher-home">
      <h2 id="indagine-e-codici" className="h4">
        L’indagine
      </h2>
      {teacherSurvey ? (
        <div className="card card-bg mb-4" data-testid="teacher-survey">
          <div className="card-body">
            <h3 className="h5 mb-1">{teacherSurvey.title}</h3>
            <p className="mb-2">Aperta fino al {formatDate(teacherSurvey.closesOn)}.</p>
            {home.answeredAt ? (
              <p className="mb-0">
                Hai risposto il {formatDateTime(home.answeredAt)}.{' '}
                <Link to="/indagine">Rivedi le tue risposte</Link>
              </p>
            ) : (
              <Link to="/indagine" className="btn btn-primary btn-sm">
                Rispondi all’indagine
              </Link>
            )}
          </div>
        </div>
      ) : (
        <p data-testid="teacher-no-survey">
          {survey
            ? 'In questo momento non c’è un’indagine aperta per insegnanti ed educatori.'
            : 'In questo momento non c’è un’indagine aperta.'}
        </p>
      )}
      {survey && survey.id !== teacherSurvey?.id && (
        <p data-testid="teacher-code-survey">
          Per studenti e famiglie è aperta l’indagine «{survey.title}», fino al {formatDate(survey.closesOn)}:
          rispondono con i codici di accesso che crei qui sotto.
        </p>
      )}

      <h3 className="h5" id="codici-classi">
        I codici di accesso delle tue classi
      </h3>
      <p>
        Studenti e famiglie rispondono in forma anonima aprendo l’indirizzo del sito seguito dal codice (per
        esempio <code>/{codes[0]?.code ?? 'Ab3dE9x'}</code>).
        {options.schoolSite ? ` I codici valgono per il plesso ${options.schoolSite.name}.` : ''}
      </p>
      <div ref={noticeRef} tabIndex={-1} role="status" aria-live="polite" data-testid="codes-notice">
        {notice && <div className={`alert alert-${notice.kind}`}>{notice.text}</div>}
      </div>
      {created.length > 0 && (
        <div className="alert alert-success" data-testid="codes-created">
          <p className="mb-2">
            {created.length === 1 ? 'Creato 1 codice' : `Creati ${formatNumber(created.length)} codici`} per
            la classe {created[0]!.classLabel}: {created.map((c) => c.code).join(', ')}.
          </p>
          <Button
            type="button"
            color="primary"
            size="sm"
            onClick={() =>
              printSheet(
                created.map((c) => c.id),
                show,
              )
            }
          >
            Stampa i codici appena creati
          </Button>
        </div>
      )}
      {survey && options.schoolSite && options.blockedReason ? (
        <p className="alert alert-info" data-testid="codes-blocked">
          {options.blockedReason}
          {options.blockedReason === ACCESS_CODE_MESSAGES.toCorrect && (
            <>
              {' '}
              <Link to={REDIRECTS.completeRegistration}>
                Leggi la nota dello staff e correggi la registrazione
              </Link>
              .
            </>
          )}
        </p>
      ) : survey && options.schoolSite ? (
        <CreateCodesForm options={options} />
      ) : (
        survey && <p className="alert alert-info">Per creare i codici indica il tuo plesso nel profilo.</p>
      )}
      {codes.length === 0 ? (
        <p className="text-muted">Non hai ancora creato codici di accesso.</p>
      ) : (
        <>
          <div className="d-flex flex-wrap gap-2 mb-3">
            <Button
              type="button"
              color="primary"
              outline
              disabled={usable.length === 0}
              onClick={() =>
                printSheet(
                  usable.map((c) => c.id),
                  show,
                )
              }
            >
              Stampa i codici
            </Button>
            <span className="small text-muted align-self-center">
              Un foglio PDF con una scheda per ogni codice ancora valido.
            </span>
          </div>
          <ExportButton
            endpoint={exportAccessCodes}
            query={EXPORT_QUERY}
            total={home.total}
            fileBase="codici-di-accesso"
          />
          <div className="table-responsive">
            <table className="table" aria-labelledby="codici-classi" data-testid="teacher-codes">
              <thead>
                <tr>
                  <th scope="col">Codice</th>
                  <th scope="col">Classe</th>
                  <th scope="col">Utilizzi</th>
                  <th scope="col">Valido fino al</th>
                  <th scope="col">Stato</th>
                  <th scope="col">Azioni</th>
                </tr>
              </thead>
              <tbody>
                {codes.map((code) => (
                  <CodeRow key={code.id} code={code} />
                ))}
              </tbody>
            </table>
          </div>
          {home.total > codes.length && (
            <p className="small text-muted">
              Sono mostrati i {formatNumber(codes.length)} codici più recenti su {formatNumber(home.total)}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
