/** Settings: the account, API keys for scripts and integrations, and the password. */
import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { AccountSection } from './AccountSection';
import { ApiAccessSection } from './ApiAccessSection';
import { PasswordSection } from './PasswordSection';

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Your account, API keys and password." />
      <Stack>
        <AccountSection />
        <ApiAccessSection />
        <PasswordSection />
      </Stack>
    </>
  );
}
