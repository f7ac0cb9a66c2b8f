import { Badge, Button } from 'design-react-kit';
import { Form } from 'react-router';
import type { SessionInfo } from '@portale/shared/accounts';
import { formatDateTime } from '../../lib/format.ts';

/** The user's active sessions, with revoke one and revoke all the others. */
export function SessionsList({ sessions }: { sessions: SessionInfo[] }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessioni" className="mb-5">
      <h2 id="sessioni" className="h4">
        Sessioni attive
      </h2>
      <p>
        I dispositivi da cui hai effettuato l’accesso. Se non ne riconosci uno, chiudi la sessione e cambia la
        password.
      </p>
      <ul className="list-group mb-3" data-testid="sessions">
        {sessions.map((session) => (
          <li
            key={session.id}
            className="list-group-item d-flex flex-wrap justify-content-between align-items-center gap-2"
            data-testid="session"
          >
            <div>
              <p className="fw-semibold mb-1">
                {session.device}
                {session.current && (
                  <Badge color="primary" className="ms-2">
                    questa sessione
                  </Badge>
                )}
              </p>
              <p className="small mb-0">
                {session.ip ? `Indirizzo IP ${session.ip} · ` : ''}
                Accesso: {formatDateTime(session.createdAt)} · Ultimo utilizzo:{' '}
                {formatDateTime(session.lastUsedAt)}
              </p>
            </div>
            {!session.current && (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="sessionId" value={session.id} />
                <Button
                  color="danger"
                  outline
                  size="sm"
                  type="submit"
                  aria-label={`Chiudi la sessione ${session.device}, ultimo utilizzo ${formatDateTime(session.lastUsedAt)}`}
                >
                  Chiudi la sessione
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others > 0 && (
        <Form method="post">
          <input type="hidden" name="intent" value="revoke-others" />
          <Button color="danger" type="submit">
            Chiudi tutte le altre sessioni
          </Button>
        </Form>
      )}
    </section>
  );
}
