// The phone web app (/app): a field user's push-to-talk terminal. A second Vite entry (web/app.html), separate from
// the console's bundle and small: React, zustand and the shared voice engine, no antd or i18next.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initialLanguage, setLanguage } from './i18n';
import './phone.css';

async function boot() {
  await setLanguage(initialLanguage()).catch(() => setLanguage('en-US'));
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  if (window.isSecureContext && 'serviceWorker' in navigator) {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => {});
  }
}

void boot();
