/** The signed-in frame: navigation on the left (a burger on phones), the account and sign-out on top. */
import { Suspense } from 'react';
import { AppShell, Burger, Button, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterLink, Outlet } from 'react-router';
import { useSession } from '../session/session';
import { JobWatcher } from './JobWatcher';
import { LeaveGuard } from './LeaveGuard';
import { PAGES } from './pages';
import { MAIN_ID } from './SkipLink';

export function Layout() {
  const [opened, { toggle, close }] = useDisclosure();
  const { session, signOut } = useSession();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              Reaction Studio
            </Title>
          </Group>
          <Group gap="sm">
            <Text size="sm" c="dimmed" visibleFrom="xs">
              {session?.user.email}
            </Text>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {PAGES.filter((page) => page.label).map(({ path, label, icon: Icon }) => (
          <NavLink key={path} component={RouterLink} to={path} label={label} leftSection={Icon ? <Icon size={18} stroke={1.6} /> : null} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Suspense fallback={<Loader aria-label="Loading page" />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <LeaveGuard />
      <JobWatcher />
    </AppShell>
  );
}
