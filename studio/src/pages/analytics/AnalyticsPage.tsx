/**
 * Analytics: the connected providers' figures for the last 7, 30 or 90 days, read from the API's
 * cache (GET /analytics never calls a provider), added up and broken down per video, hook and
 * channel; "Sync now" asks the providers again.
 */
import { useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, SegmentedControl, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notify } from '../../components/notify';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconRefresh } from '../../components/icons';
import { Link } from 'react-router';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { analyticsKey, fetchOverview } from './analytics-query';
import { AnalyticsCharts } from './AnalyticsCharts';
import { Breakdowns } from './Breakdowns';
import { ProviderSyncState } from './ProviderSyncState';
import { StatCards } from './StatCards';
import { SyncReport } from './SyncReport';
import { formatDay, WINDOWS, type SyncResult, type WindowDays } from './analytics-words';

export default function AnalyticsPage() {
  const queries = useQueryClient();
  const [windowDays, setWindowDays] = useState<WindowDays>('30');
  const days = Number(windowDays);
  const overview = useQuery({
    queryKey: analyticsKey(days),
    queryFn: () => fetchOverview(days),
    placeholderData: keepPreviousData,
  });
  const [report, setReport] = useState<SyncResult | null>(null);
  const sync = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/analytics/sync', { params: { query: { days } } }))).data,
    onSuccess: (result) => {
      // Other windows are computed from the same cache, now replaced.
      void queries.invalidateQueries({ queryKey: ['analytics'] });
      queries.setQueryData(analyticsKey(result.days), result.overview);
      setReport(result);
      const failed = result.providers.filter((p) => p.status === 'failed').length;
      if (result.providers.length === 0) notify('Nothing to sync: no provider is connected.');
      else notify(failed ? `Synced, but ${failed} provider(s) could not be read.` : 'Analytics synced.', failed ? 'orange' : 'green');
    },
  });

  const data = overview.data;
  const neverSynced = !!data && data.providers.length > 0 && data.providers.every((p) => p.synced_at === null);

  return (
    <Stack gap="lg">
      <PageHeader
        title="Analytics"
        description="Views and engagement of the posts that went out in the window, from your connected providers."
        actions={
          <Group gap="sm">
            <SegmentedControl aria-label="Time window" value={windowDays} onChange={(value) => setWindowDays(value as WindowDays)} data={WINDOWS.map((w) => ({ value: w, label: `${w} days` }))} />
            <Button leftSection={<IconRefresh size={16} />} onClick={() => sync.mutate()} loading={sync.isPending}>
              Sync now
            </Button>
          </Group>
        }
      />
      <ProblemAlert error={overview.error ?? sync.error} onClose={sync.error ? sync.reset : undefined} />
      {report && <SyncReport result={report} onClose={() => setReport(null)} />}
      {overview.isPending && <Loader aria-label="Loading analytics" />}
      {data && data.providers.length === 0 && (
        <Alert variant="default" title="No provider connected">
          <Text size="sm">
            Analytics come from your scheduling providers.{' '}
            <Anchor component={Link} to="/social">
              Connect one on the Social page
            </Anchor>
            , publish a video, then press Sync now.
          </Text>
        </Alert>
      )}
      {neverSynced && (
        <Alert variant="default" title="Not synced yet">
          Press Sync now to fetch the figures from your providers.
        </Alert>
      )}
      {data && data.providers.length > 0 && (
        <>
          <section aria-labelledby="totals-heading">
            <VisuallyHidden>
              <Title order={3} id="totals-heading">
                Totals, {formatDay(data.since)} to {formatDay(data.until)}
              </Title>
            </VisuallyHidden>
            <StatCards totals={data.totals} />
            <Text size="xs" c="gray.7" mt="xs">
              {formatDay(data.since)} to {formatDay(data.until)} (UTC days){overview.isPlaceholderData ? ' · loading the new window…' : ''}
            </Text>
          </section>
          <ProviderSyncState providers={data.providers} />
          <AnalyticsCharts overview={data} />
          <Breakdowns overview={data} />
        </>
      )}
    </Stack>
  );
}
