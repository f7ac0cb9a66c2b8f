import 'bootstrap-italia/dist/css/bootstrap-italia.min.css';
import './styles/fonts.css';
import './styles/app.css';
import { type ReactNode, StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router.tsx';
import { isChunkLoadError, reloadAt, watchForNewBuild } from './app/reload.ts';
import { BUILD_ID } from './lib/config.ts';

/**
 * Takes the prerendered mark off the container once the app's first render has replaced the painted
 * markup (a layout effect runs right after that commit). Over a prerendered page the render is a
 * transition, so it commits some time after it starts: the mark tells the page's tests, and anything
 * else that looks, whether the elements on screen are already the app's own.
 */
function CommittedMark({ container, children }: { container: HTMLElement; children: ReactNode }) {
  useLayoutEffect(() => container.removeAttribute('data-prerendered'), [container]);
  return children;
}

// The entry's modules are evaluated in one task and the router, whose creation runs the first page's
// loaders up to their first await, is created in the next one: the boot is two shorter tasks instead of
// one long one, so the browser can paint and answer input in between (a phone's total blocking time
// counts each task's excess over 50 ms).
function boot() {
  const router = createRouter();
  watchForNewBuild(router, BUILD_ID);
  window.addEventListener('vite:preloadError', (event) => {
    const target = router.state.navigation.location ?? router.state.location;
    if (
      isChunkLoadError((event as Event & { payload?: unknown }).payload) &&
      reloadAt(target.pathname + target.search + target.hash)
    ) {
      event.preventDefault();
    }
  });

  const container = document.getElementById('root')!;
  const mount = (prerendered: boolean) => {
    const root = createRoot(container);
    const render = () => {
      root.render(
        <StrictMode>
          <CommittedMark container={container}>
            <RouterProvider router={router} />
          </CommittedMark>
        </StrictMode>,
      );
    };
    // Over a prerendered page the app renders as a transition: React yields to the browser every few
    // milliseconds while it builds the page, instead of holding the main thread for the whole render (a
    // phone's taps and scrolls are answered meanwhile); the painted page stays until the commit.
    if (prerendered) startTransition(render);
    else render();
  };
  // A prerendered public page (scripts/post-build.mjs) stays on screen until the router can render it
  // again (session restored, guards run, page chunk loaded): no blank flash and no layout shift in
  // between. Its forms are inert until then, so nothing typed is lost when the app replaces the markup.
  // Every other page shows the loading fallback at once.
  if (container.hasAttribute('data-prerendered') && !router.state.initialized) {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      mount(true);
    });
  } else {
    mount(false);
  }
}
setTimeout(boot, 0);
