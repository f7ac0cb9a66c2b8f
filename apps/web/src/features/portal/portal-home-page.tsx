import { Card, CardBody, CardText, CardTitle } from 'design-react-kit';
import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { can, PERMISSION_LABELS, ROLE_LABELS } from '@portale/shared/auth';
import { getDashboardSummary, type DashboardSummary } from '@portale/shared/dashboard';
import { PAGES, evaluateAccess } from '@portale/shared/pages';
import { PageHeader } from '../../components/page-header.tsx';
import { withdrawalAction, WITHDRAW_INTENT } from '../../components/withdrawal-form.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { getSession, useSession } from '../../lib/session.ts';
import { DetectorHome, isDetector, loadDetectorHome, type DetectorHomeResult } from './detector-home.tsx';
import {
  EnrolmentInvitations,
  INVITATION_INTENT,
  invitationAction,
  loadInvitations,
  type InvitationsResult,
} from './enrolment-invitations.tsx';
import { DUE_ACTION_INTENT, dueActionStep } from './due-action-action.ts';
import {
  CREATE_CODES_INTENT,
  createCodesStep,
  REVOKE_CODE_INTENT,
  revokeCodeStep,
} from './teacher-codes-action.ts';
import { DueActions, loadDueActions, mayHaveDueActions, type DueActionsResult } from './due-actions.tsx';
import { CeilingAlerts } from './ceiling-alerts.tsx';
import { KeyFigures } from './key-figures.tsx';
import { ProgrammeTrends } from './programme-trends.tsx';
import { isSchoolPerson, loadSchoolHome, SchoolHome, type SchoolHomeResult } from './school-home.tsx';
import {
  loadSubstitutionRequests,
  mayRequestSubstitutions,
  SUBSTITUTION_INTENT,
  SubstitutionRequest,
  substitutionRequestAction,
  type SubstitutionRequestResult,
} from './substitution-request.tsx';
import { isTeacher, loadTeacherHome, TeacherHome, type TeacherHomeResult } from './teacher-home.tsx';

/** Every section with a fixed address that needs a role: portal sections and the formal adhesion. */
const SECTIONS = PAGES.filter((p) => p.access && !p.path.includes(':') && p.id !== 'portal.home');

interface HomeData {
  /** The key figures, for users who may read them (staff); null for everyone else. */
  summary: DashboardSummary | null;
  /** Why the figures are missing when the request failed: the rest of the home still shows. */
  summaryProblem: string | null;
  /** A principal's or first contact's institute, plessi and teachers; null for everyone else. */
  school?: SchoolHomeResult | null;
  /** A principal's or first contact's substitution requests and the form's choices. */
  substitutions?: SubstitutionRequestResult | null;
  /** The actions assigned to a principal, first contact or teacher; null for everyone else. */
  dueActions?: DueActionsResult | null;
  /** A detector's next visits and plessi; null for everyone else. */
  detector?: DetectorHomeResult | null;
  /** A teacher's open survey and the access codes of their classes; null for everyone else. */
  teacher?: TeacherHomeResult | null;
  /** The invitations an enrolment sent to this account, waiting for an answer (any role). */
  invitations?: InvitationsResult | null;
}

/** Each home's data, and the due actions of whoever actions are assigned to. */
export async function loader(args: LoaderFunctionArgs): Promise<HomeData> {
  const [home, dueActions, invitations] = await Promise.all([
    homeData(args),
    mayHaveDueActions(getSession().user) ? loadDueActions(args.request.signal) : null,
    loadInvitations(args.request.signal),
  ]);
  return { ...home, dueActions, invitations };
}

/** Staff get the key figures; nobody else sends the request (it would be a 403). */
async function homeData({ request }: LoaderFunctionArgs): Promise<HomeData> {
  if (isTeacher(getSession().user))
    return { summary: null, summaryProblem: null, teacher: await loadTeacherHome(request.signal) };
  if (isDetector(getSession().user))
    return { summary: null, summaryProblem: null, detector: await loadDetectorHome(request.signal) };
  if (isSchoolPerson(getSession().user)) {
    const [school, substitutions] = await Promise.all([
      loadSchoolHome(request.signal, Number(new URL(request.url).searchParams.get('istituto')) || undefined),
      mayRequestSubstitutions(getSession().user)
        ? loadSubstitutionRequests(request.signal)
        : Promise.resolve(null),
    ]);
    return { summary: null, summaryProblem: null, school, substitutions };
  }
  if (!can(getSession().user, 'read:dashboard')) return { summary: null, summaryProblem: null };
  try {
    return {
      summary: await callApi(getDashboardSummary, {}, { signal: request.signal }),
      summaryProblem: null,
    };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      summary: null,
      summaryProblem: 'Le cifre del programma non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

/** The home's forms, each named by its intent. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  if (form.get('intent') === SUBSTITUTION_INTENT) return substitutionRequestAction(form);
  if (form.get('intent') === INVITATION_INTENT) return invitationAction(form);
  if (form.get('intent') === DUE_ACTION_INTENT) return dueActionStep(form);
  if (form.get('intent') === CREATE_CODES_INTENT) return createCodesStep(form);
  if (form.get('intent') === REVOKE_CODE_INTENT) return revokeCodeStep(form);
  if (form.get('intent') === WITHDRAW_INTENT) return withdrawalAction(form, Number(form.get('instituteId')));
  return null;
}

/** Portal home: the key figures (staff), who you are, your roles and what the portal lets you do. */
export function Component() {
  const { user } = useSession();
  const data = useLoaderData<HomeData | null>();
  if (!user) return null;
  const sections = SECTIONS.filter((p) => evaluateAccess(p, user).kind === 'allow');
  return (
    <>
      <PageHeader
        title={`Benvenuta/o, ${user.firstName}`}
        description="La tua area riservata del Portale Scuole."
      />
      {data?.invitations && <EnrolmentInvitations items={data.invitations.items} />}
      {data?.invitations?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.invitations.problem}
        </div>
      )}
      {data?.summary && <CeilingAlerts alerts={data.summary.ceilingAlerts} />}
      {data?.summary && <KeyFigures summary={data.summary} />}
      {data?.summary && <ProgrammeTrends />}
      {data?.school?.home && <SchoolHome home={data.school.home} user={user} />}
      {data?.substitutions?.data && <SubstitutionRequest data={data.substitutions.data} />}
      {data?.substitutions?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.substitutions.problem}
        </div>
      )}
      {data?.dueActions?.data && <DueActions data={data.dueActions.data} />}
      {data?.dueActions?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.dueActions.problem}
        </div>
      )}
      {data?.detector?.visits && <DetectorHome visits={data.detector.visits} sites={data.detector.sites} />}
      {data?.teacher?.home && <TeacherHome home={data.teacher.home} />}
      {data?.teacher?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.teacher.problem}
        </div>
      )}
      {data?.detector?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.detector.problem}
        </div>
      )}
      {data?.school?.problem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.school.problem}
        </div>
      )}
      {data?.summaryProblem && (
        <div className="alert alert-warning mb-5" role="alert">
          {data.summaryProblem}
        </div>
      )}
      <section aria-labelledby="profilo" className="mb-5">
        <h2 id="profilo" className="h4">
          Il tuo profilo
        </h2>
        <dl className="row">
          <dt className="col-sm-4">Nome</dt>
          <dd className="col-sm-8">
            {user.firstName} {user.lastName}
          </dd>
          <dt className="col-sm-4">E-mail</dt>
          <dd className="col-sm-8">{user.email}</dd>
          <dt className="col-sm-4">Ruoli</dt>
          <dd className="col-sm-8" data-testid="user-roles">
            {user.roles.length ? user.roles.map((r) => ROLE_LABELS[r]).join(', ') : 'Nessun ruolo'}
          </dd>
          {user.permissions.length > 0 && (
            <>
              <dt className="col-sm-4">Permessi</dt>
              <dd className="col-sm-8">{user.permissions.map((p) => PERMISSION_LABELS[p]).join(', ')}</dd>
            </>
          )}
          {user.lastLoginAt && (
            <>
              <dt className="col-sm-4">Ultimo accesso</dt>
              <dd className="col-sm-8">{formatDateTime(user.lastLoginAt)}</dd>
            </>
          )}
        </dl>
      </section>
      <section aria-labelledby="sezioni">
        <h2 id="sezioni" className="h4">
          Cosa puoi fare nel portale
        </h2>
        {sections.length === 0 ? (
          <p>
            Il tuo account non ha ancora sezioni riservate. Per informazioni sulla partecipazione consulta la
            pagina <Link to="/indagine">Indagine</Link> o{' '}
            <Link to="/contatti">contatta il gruppo di lavoro</Link>.
          </p>
        ) : (
          <div className="row">
            {sections.map((page) => (
              <div className="col-md-6 mb-3" key={page.id}>
                <Card className="card-bg h-100">
                  <CardBody>
                    <CardTitle tag="h3" className="h5">
                      <Link to={page.path}>{page.navLabel ?? page.title}</Link>
                    </CardTitle>
                    <CardText>{page.description}</CardText>
                  </CardBody>
                </Card>
              </div>
            ))}
          </div>
        )}
      </section>
    </>
  );
}
