/** Providers and routes. Signed-out visitors see only sign-in, sign-up and the password-reset pages. */
import { Center, Loader, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { SessionProvider, useSession } from '../session/session';
import { ForgotPasswordPage, ResetPasswordPage, SignInPage, SignUpPage } from '../session/AuthPages';
import { OutboxPage } from '../session/OutboxPage';
import { Layout } from './Layout';
import { HOME, PAGES } from './pages';
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
  // A mailed link opens wherever the person is signed in, or nobody is.
  const anyone = [<Route key="reset" path="/reset-password" element={<ResetPasswordPage />} />, <Route key="outbox" path="/outbox" element={<OutboxPage />} />];
  if (!session) {
    return (
      <Routes>
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        {anyone}
        <Route path="*" element={<SignInPage />} />
      </Routes>
    );
  }
  return (
    <Routes>
      {anyone}
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
