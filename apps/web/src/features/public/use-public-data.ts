import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/http-client.ts';
import { apiRequest } from '../../lib/api-client.ts';

export type PublicData<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; message: string; httpStatus?: number };

/** GET of a public endpoint, with the API's Italian message on failure. */
export function usePublicData<T>(path: string): PublicData<T> {
  const [state, setState] = useState<PublicData<T>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    apiRequest<T>(path, { signal: controller.signal })
      .then((data) => setState({ status: 'ready', data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : 'Si è verificato un problema imprevisto. Riprova più tardi.';
        setState({ status: 'error', message, httpStatus: error instanceof ApiError ? error.status : undefined });
      });
    return () => controller.abort();
  }, [path]);
  return state;
}
