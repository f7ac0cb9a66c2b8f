import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

const FALLBACK_BODY = 'Si è verificato un problema imprevisto. Riprova più tardi.';

function describe(error: unknown): { status: number; message: string | undefined } {
  if (isRouteErrorResponse(error)) {
    const data = error.data as { message?: unknown } | string | undefined;
    const message =
      typeof data === 'string' ? data : typeof data?.message === 'string' ? data.message : undefined;
    return { status: error.status, message: message || error.statusText || undefined };
  }
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return {
      status: typeof status === 'number' && status > 0 ? status : 500,
      message: error.message || undefined,
    };
  }
  return { status: 500, message: undefined };
}

/**
 * The error screen of seed-spec §2: 'Pagina non trovata' on 404, otherwise 'Errore imprevisto' with
 * the error's message (or the generic sentence), and a 'torna alla home' button. The technical
 * message stays on the element (data-error-message) and in the console.
 */
export function RouteError() {
  const error = useRouteError();
  const { status, message } = describe(error);
  const isNotFound = status === 404;
  const title = isNotFound ? 'Pagina non trovata' : 'Errore imprevisto';
  useEffect(() => {
    document.title = `${title} | Portale Scuole`;
    console.warn(`[errore ${status}]`, message ?? error);
  }, [title, status, message, error]);
  return (
    <div
      className="container my-5"
      data-error-status={status}
      data-error-message={message ?? ''}
      data-testid="error-screen"
    >
      <div className="row">
        <div className="col-lg-8">
          <h1 className="mb-4">{title}</h1>
          <p className="lead">
            {isNotFound
              ? 'Sembra che abbia seguito un URL che non esiste nel portale.'
              : (message ?? FALLBACK_BODY)}
          </p>
          <Link to="/" className="btn btn-primary mt-3">
            torna alla home
          </Link>
        </div>
      </div>
    </div>
  );
}
