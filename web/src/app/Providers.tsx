import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useBranding } from '../shared/branding/store';
import { useSettings } from '../shared/settings';
import { setI18nLanguage } from '../i18n';
import { loadLocales } from '../i18n/locales';
import { buildTheme, isDarkSkin } from '../shared/theme';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

// Toast 3 s at offset 80, notice 3 s at offset 50 (spec §9).
export const MESSAGE_CONFIG = { duration: 3, top: 80 } as const;
export const NOTIFICATION_CONFIG = { duration: 3, top: 50 } as const;

export function Providers({ children, initialLocale }: { children: ReactNode; initialLocale: Locale }) {
  const skin = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const language = useSettings((s) => s.language);
  const brandColour = useBranding((s) => s.branding?.themeColor);
  const [locale, setLocale] = useState<Locale>(initialLocale);

  useEffect(() => {
    let live = true;
    void Promise.all([loadLocales(language), setI18nLanguage(language)]).then(([l]) => live && setLocale(l));
    return () => {
      live = false;
    };
  }, [language]);

  useEffect(() => {
    document.documentElement.dataset.theme = skin;
    document.documentElement.style.colorScheme = isDarkSkin(skin) ? 'dark' : 'light';
  }, [skin]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale} theme={buildTheme(skin, primary, brandColour)} componentSize="middle">
        <AntApp message={{ ...MESSAGE_CONFIG, maxCount: 3 }} notification={{ ...NOTIFICATION_CONFIG, placement: 'topRight' }}>
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
