import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/Providers';
import { createAppRouter } from './app/router';
import { startSession } from './app/startup';
import { wireClients } from './app/wiring';
import { loadBranding, dismissSplash } from './shared/branding/loader';
import { useSettings } from './shared/settings';
import { initI18n } from './i18n';
import './app/global.css';

async function boot() {
  wireClients();
  // Everything the first screen needs starts at once and runs side by side: the socket and voice of a signed-in
  // window, the first screen's code (the router loads it when created), the branding and the texts.
  const session = startSession(location.pathname);
  const router = createAppRouter();
  const language = useSettings.getState().language;
  await Promise.all([loadBranding(), initI18n(language), session]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
  dismissSplash();
  // The CJK fallback's faces, once the first screen is up (a slice downloads only when its text is drawn).
  void import('./shared/fonts/cjk').then((m) => m.registerCjkFont());
}

void boot();
