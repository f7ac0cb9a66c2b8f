import { useEffect, useRef } from 'react';
import {
  Link,
  useActionData,
  useLoaderData,
  useSearchParams,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { can, PERMISSION_LABELS, ROLE_LABELS } from '@portale/shared/auth';
import { href } from '@portale/shared/pages';
import {
  coversGrants,
  getUser,
  updateUser,
  USER_ACTION_ENDPOINTS,
  USER_ACTIONS,
  UserUpdateSchema,
  type UserAction,
  type UserDetail,
} from '@portale/shared/users';
import { AuditLog } from '../../components/audit-log.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { loadAudit } from '../../lib/load-audit.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { accessOf } from './user-access-fields.tsx';
import { UserActions } from './user-actions.tsx';
import { UserStatusBadges } from './user-badges.tsx';
import { UserEditForm } from './user-edit-form.tsx';
import { lastLoginLabel, USER_AUDIT_ACTION_LABELS, USER_FIELD_LABELS } from './user-labels.ts';
import { invalidForm } from '../../lib/form-action.ts';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const userId = Number(params.userId);
  const { signal } = request;
  const [user, audit] = await Promise.all([
    callApi(getUser, { params: { userId } }, { signal }),
    loadAudit('user', userId, signal),
  ]);
  return { user, audit };
}

type ActionResult = FormResult & { intent: string };

/** The edit of names, roles and permissions (`update`), or one account action (suspend…). */
export async function action({ request, params }: ActionFunctionArgs): Promise<ActionResult> {
  const userId = Number(params.userId);
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'update') {
      const parsed = UserUpdateSchema.safeParse({
        firstName: text(form, 'firstName'),
        lastName: text(form, 'lastName'),
        ...(form.has('email') ? { email: text(form, 'email') } : {}),
        ...(text(form, 'phone').trim() ? { phone: text(form, 'phone') } : {}),
        ...(form.has('access') ? accessOf(form) : {}),
      });
      if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
      await callApi(updateUser, { params: { userId }, body: parsed.data });
      return { intent, ok: true, message: 'Modifiche salvate. Lo storico qui sotto riporta la modifica.' };
    }
    if ((USER_ACTIONS as readonly string[]).includes(intent)) {
      const answer = await callApi(USER_ACTION_ENDPOINTS[intent as UserAction], { params: { userId } });
      return { intent, ok: true, message: answer.message };
    }
    return { intent, message: 'Operazione non riconosciuta.' };
  } catch (error) {
    return { intent, ...failureResult(error) };
  }
}

function Flag({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return value ? <>{yes}</> : <span className="text-muted">{no}</span>;
}

function Facts({ user }: { user: UserDetail }) {
  const roles = user.roles.map((r) => ROLE_LABELS[r]);
  const permissions = user.permissions.map((p) => `${PERMISSION_LABELS[p]} (${p})`);
  return (
    <dl className="row detail-facts" data-testid="user-facts">
      <dt className="col-sm-4">E-mail</dt>
      <dd className="col-sm-8">
        <a href={`mailto:${user.email}`}>{user.email}</a> ·{' '}
        <Flag value={user.emailVerified} yes="verificata" no="non verificata" />
      </dd>
      <dt className="col-sm-4">Telefono</dt>
      <dd className="col-sm-8">
        {user.phone ?? <span className="text-muted">non indicato</span>}
        {user.phone && (
          <>
            {' · '}
            <Flag value={user.phoneVerified} yes="verificato" no="non verificato" />
          </>
        )}
      </dd>
      <dt className="col-sm-4">Ruoli</dt>
      <dd className="col-sm-8">
        {roles.length ? roles.join(', ') : <span className="text-muted">nessuno</span>}
      </dd>
      <dt className="col-sm-4">Permessi diretti</dt>
      <dd className="col-sm-8">
        {permissions.length ? permissions.join(', ') : <span className="text-muted">nessuno</span>}
      </dd>
      <dt className="col-sm-4">Stato</dt>
      <dd className="col-sm-8">
        <UserStatusBadges user={user} />
        {user.lockedUntil && <> Accesso bloccato fino al {formatDateTime(user.lockedUntil)}.</>}
      </dd>
      <dt className="col-sm-4">Secondo fattore</dt>
      <dd className="col-sm-8">
        <Flag value={user.mfaEnrolled} yes="configurato" no="non configurato" />
      </dd>
      <dt className="col-sm-4">Deve cambiare la password</dt>
      <dd className="col-sm-8">{user.mustChangePassword ? 'sì, al prossimo accesso' : 'no'}</dd>
      <dt className="col-sm-4">Ultimo accesso</dt>
      <dd className="col-sm-8">
        {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : <span className="text-muted">mai</span>}
      </dd>
      <dt className="col-sm-4">Come ha effettuato l’ultimo accesso</dt>
      <dd className="col-sm-8" data-testid="last-login-method">
        {user.lastLogin ? (
          <>
            Con {lastLoginLabel(user.lastLogin)}, il {formatDateTime(user.lastLogin.at)}
          </>
        ) : (
          <span className="text-muted">non registrato</span>
        )}
      </dd>
      <dt className="col-sm-4">Sessioni aperte</dt>
      <dd className="col-sm-8">{user.activeSessions}</dd>
      <dt className="col-sm-4">Creato il</dt>
      <dd className="col-sm-8">{formatDateTime(user.createdAt)}</dd>
      {user.teacherProfileId !== null && (
        <>
          <dt className="col-sm-4">Profilo di insegnante</dt>
          <dd className="col-sm-8">
            <Link to={`${href('portal.teachers')}?teacherId=${user.teacherProfileId}`}>
              Apri il profilo nell’elenco degli insegnanti
            </Link>
          </dd>
        </>
      )}
    </dl>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mb-5">
      <h2 id={`${id}-title`} className="h4 mb-3">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One user: data, roles and permissions (editable by managers), account actions and the audit. */
export function Component() {
  const { user, audit } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  const result = useActionData<ActionResult>();
  const { user: me } = useSession();
  const [search] = useSearchParams();
  const manages = Boolean(me && coversGrants(me, user));
  const canEdit = manages && can(me, 'update:user');
  const canAct = manages && can(me, 'manage:user');
  const actionResult = result && result.intent !== 'update' ? result : undefined;
  const editResult = result?.intent === 'update' ? result : undefined;
  const message = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionResult) message.current?.focus();
  }, [actionResult]);
  return (
    <>
      <PageHeader
        title={`${user.firstName} ${user.lastName}`}
        description={`Utente del portale · ${user.email}`}
      >
        <UserStatusBadges user={user} />
      </PageHeader>
      {search.get('creato') === '1' && !result && (
        <FormMessage
          tone="success"
          message={`Utente creato: ${user.email} ha ricevuto l’e-mail per scegliere la password.`}
        />
      )}

      <Section id="dati" title="Dati dell’utente">
        <Facts user={user} />
      </Section>

      {canAct && (
        <Section id="azioni" title="Azioni sull’account">
          <div ref={message} tabIndex={-1}>
            <FormMessage tone={actionResult?.ok ? 'success' : 'danger'} message={actionResult?.message} />
          </div>
          <UserActions user={user} isSelf={me?.id === user.id} />
        </Section>
      )}

      {canEdit && (
        <Section id="ruoli" title="Nome, ruoli e permessi">
          <FormMessage tone={editResult?.ok ? 'success' : 'danger'} message={editResult?.message} />
          <UserEditForm key={user.updatedAt} user={user} actor={me!} errors={editResult?.errors ?? {}} />
        </Section>
      )}

      {audit && (
        <Section id="storico" title="Storico">
          <p className="small">
            Le modifiche fatte a questo utente e le operazioni che ha fatto nel portale, dalla più recente.
          </p>
          <AuditLog
            entries={audit.items}
            total={audit.total}
            totalApproximate={audit.totalApproximate}
            fieldLabels={USER_FIELD_LABELS}
            actionLabels={USER_AUDIT_ACTION_LABELS}
            headingId="storico-title"
          />
        </Section>
      )}
    </>
  );
}
