import 'bootstrap-italia/dist/css/bootstrap-italia.min.css';
import './styles/fonts.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { isChunkLoadError, reloadAt, watchForNewBuild } from './app/reload.ts';
import { BUILD_ID } from './lib/config.ts';

watchForNewBuild(router, BUILD_ID);
window.addEventListener('vite:preloadError', (event) => {
  const target = router.state.navigation.location ?? router.state.location;
  if (isChunkLoadError((event as Event & { payload?: unknown }).payload) && reloadAt(target.pathname + target.search + target.hash)) {
    event.preventDefault();
  }
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
