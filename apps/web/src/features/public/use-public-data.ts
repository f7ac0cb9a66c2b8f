import { useEffect, useState } from 'react';
import { useMatches } from 'react-router';
import { getPage, type PageDef } from '@portale/shared/pages';
import { ApiError } from '../../lib/http-client.ts';
import { apiRequest } from '../session/session-store.ts';

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

/** The route-table entry of the page being shown. */
export function useCurrentPage(): PageDef {
  const matches = useMatches();
  const pageId = [...matches].reverse().map((m) => (m.handle as { pageId?: string } | undefined)?.pageId).find(Boolean);
  return getPage(pageId ?? 'home');
}
