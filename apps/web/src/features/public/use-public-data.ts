import { useEffect, useState } from 'react';
import type { Endpoint, EndpointInput, EndpointOutput } from '@portale/shared/http';
import { ApiError } from '../../lib/http-client.ts';
import { callApi } from '../../lib/api-client.ts';

export type PublicData<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'error'; message: string; httpStatus?: number };

/** GET of a public endpoint without input, with the API's Italian message on failure. */
export function usePublicData<E extends Endpoint>(endpoint: E): PublicData<EndpointOutput<E>> {
  const [state, setState] = useState<PublicData<EndpointOutput<E>>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    callApi(endpoint, {} as EndpointInput<E>, { signal: controller.signal })
      .then((data) => setState({ status: 'ready', data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof Error
            ? error.message
            : 'Si è verificato un problema imprevisto. Riprova più tardi.';
        setState({
          status: 'error',
          message,
          httpStatus: error instanceof ApiError ? error.status : undefined,
        });
      });
    return () => controller.abort();
  }, [endpoint]);
  return state;
}
