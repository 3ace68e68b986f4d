/** Per day (the whole window, zeros included) and per provider; views apart, since they dwarf the rest. */
import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid } from '@mantine/core';
import { ChartFigure } from './ChartFigure';
import { formatCount, formatDay, METRICS, PROVIDER_LABEL, type Overview } from './analytics-words';

const ENGAGEMENT = METRICS.filter((metric) => metric.key !== 'views');
const VIEWS = METRICS.filter((metric) => metric.key === 'views');
const NO_PROVIDER = 'No provider connected yet.';
const series = (metrics: typeof METRICS) => metrics.map(({ key, label, color }) => ({ name: key, label, color }));

function busiestDay(daily: Overview['daily']): string {
  const best = daily.reduce<Overview['daily'][number] | undefined>((top, d) => (!top || d.views > top.views ? d : top), undefined);
  return best && best.views > 0 ? `The most views came on ${formatDay(best.date)}: ${formatCount(best.views)}.` : 'No views in this window yet.';
}

export function AnalyticsCharts({ overview }: { overview: Overview }) {
  const days = overview.daily.map((d) => ({ ...d, day: formatDay(d.date) }));
  const providers = overview.providers.map((p) => ({ provider: PROVIDER_LABEL[p.provider], ...p.totals }));
  const dayRows = (metrics: typeof METRICS) => overview.daily.map((d) => ({ label: formatDay(d.date), values: metrics.map((m) => d[m.key]) }));
  const providerRows = (metrics: typeof METRICS) => overview.providers.map((p) => ({ label: PROVIDER_LABEL[p.provider], values: metrics.map((m) => p.totals[m.key]) }));
  const labels = (metrics: typeof METRICS) => metrics.map((m) => m.label);
  const common = { h: 240, withLegend: true, accessibilityLayer: false, valueFormatter: formatCount } as const;

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <ChartFigure id="views-per-day" title="Views per day" summary={busiestDay(overview.daily)} table={{ rowHeader: 'Day', columns: labels(VIEWS), rows: dayRows(VIEWS) }}>
        <LineChart {...common} data={days} dataKey="day" series={series(VIEWS)} curveType="linear" withDots={days.length <= 31} />
      </ChartFigure>
      <ChartFigure
        id="engagement-per-day"
        title="Likes, comments and shares per day"
        summary={`${formatCount(overview.totals.likes)} likes, ${formatCount(overview.totals.comments)} comments and ${formatCount(overview.totals.shares)} shares in ${overview.days} days.`}
        table={{ rowHeader: 'Day', columns: labels(ENGAGEMENT), rows: dayRows(ENGAGEMENT) }}
      >
        <LineChart {...common} data={days} dataKey="day" series={series(ENGAGEMENT)} curveType="linear" withDots={days.length <= 31} />
      </ChartFigure>
      <ChartFigure
        id="views-per-provider"
        title="Views per provider"
        summary={overview.providers.map((p) => `${PROVIDER_LABEL[p.provider]}: ${formatCount(p.totals.views)} views from ${formatCount(p.totals.posts)} post${p.totals.posts === 1 ? '' : 's'}.`).join(' ') || NO_PROVIDER}
        table={{ rowHeader: 'Provider', columns: labels(VIEWS), rows: providerRows(VIEWS) }}
      >
        <BarChart {...common} data={providers} dataKey="provider" series={series(VIEWS)} />
      </ChartFigure>
      <ChartFigure
        id="engagement-per-provider"
        title="Likes, comments and shares per provider"
        summary={overview.providers.map((p) => `${PROVIDER_LABEL[p.provider]}: ${formatCount(p.totals.likes)} likes, ${formatCount(p.totals.comments)} comments, ${formatCount(p.totals.shares)} shares.`).join(' ') || NO_PROVIDER}
        table={{ rowHeader: 'Provider', columns: labels(ENGAGEMENT), rows: providerRows(ENGAGEMENT) }}
      >
        <BarChart {...common} data={providers} dataKey="provider" series={series(ENGAGEMENT)} />
      </ChartFigure>
    </SimpleGrid>
  );
}
