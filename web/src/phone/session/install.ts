// The browser's install prompt (beforeinstallprompt), kept for the menu's "Install app".
import { create } from 'zustand';

export type InstallPrompt = Event & { prompt: () => Promise<void> };

export const useInstallPrompt = create<{ prompt: InstallPrompt | null }>(() => ({ prompt: null }));

window.addEventListener('beforeinstallprompt', (e) => {
  e.preventDefault();
  useInstallPrompt.setState({ prompt: e as InstallPrompt });
});

/** Shows the browser's prompt; a prompt can be shown once. */
export async function install(p: InstallPrompt): Promise<void> {
  await p.prompt();
  useInstallPrompt.setState({ prompt: null });
}
