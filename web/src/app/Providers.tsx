import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useSettings } from '../shared/settings';
import { setI18nLanguage } from '../i18n';
import { isDarkSkin } from '../shared/theme';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/**
 * What every page runs in, the login page included: the query cache, the UI language and the skin. The UI kit
 * (antd) is not here: the login page paints without it, and the screens get it from KitFrame (Kit.tsx).
 */
export function Providers({ children }: { children: ReactNode }) {
  const skin = useSettings((s) => s.theme);
  const language = useSettings((s) => s.language);

  useEffect(() => {
    void setI18nLanguage(language);
  }, [language]);

  useEffect(() => {
    document.documentElement.dataset.theme = skin;
    document.documentElement.style.colorScheme = isDarkSkin(skin) ? 'dark' : 'light';
  }, [skin]);

  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
