/** Providers and routes. Signed-out visitors see only sign-in and sign-up. */
import { Center, Loader, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { SessionProvider, useSession } from '../session/session';
import { SignInPage, SignUpPage } from '../session/AuthPages';
import { Layout } from './Layout';
import { HOME, PAGES } from './pages';
import { SkipLink } from './SkipLink';
import { cssVariablesResolver, theme } from './theme';

const queries = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 } } });

function StudioRoutes() {
  const { session } = useSession();
  if (session === undefined) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (!session) {
    return (
      <Routes>
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="*" element={<SignInPage />} />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route element={<Layout />}>
        {PAGES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<Navigate to={HOME} replace />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <SkipLink />
      <Notifications position="top-right" />
      <QueryClientProvider client={queries}>
        <SessionProvider>
          <BrowserRouter>
            <StudioRoutes />
          </BrowserRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
