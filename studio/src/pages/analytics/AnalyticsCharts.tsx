/** Per day (the whole window, zeros included) and per provider; views apart, since they dwarf the rest. */
import { useMemo } from 'react';
import { parseThemeColor, SimpleGrid, useMantineTheme } from '@mantine/core';
import { ChartFigure } from './ChartFigure';
import { chartOf, type ChartLook, type ChartSpec } from './chart-options';
import { formatCount, formatDay, METRICS, PROVIDER_LABEL, type Metric, type Overview } from './analytics-words';
import { UPlotChart } from './UPlotChart';

const ENGAGEMENT = METRICS.filter((metric) => metric.key !== 'views');
const VIEWS = METRICS.filter((metric) => metric.key === 'views');
const NO_PROVIDER = 'No provider connected yet.';

function busiestDay(daily: Overview['daily']): string {
  const best = daily.reduce<Overview['daily'][number] | undefined>((top, d) => (!top || d.views > top.views ? d : top), undefined);
  return best && best.views > 0 ? `The most views came on ${formatDay(best.date)}: ${formatCount(best.views)}.` : 'No views in this window yet.';
}

/** The figures a chart draws, as the table screen readers get instead. */
const tableOf = (spec: ChartSpec) => ({
  rowHeader: spec.categoryName,
  columns: spec.series.map((s) => s.label),
  rows: spec.categories.map((label, index) => ({ label, values: spec.series.map((s) => s.values[index] ?? 0) })),
});

function useCharts(overview: Overview) {
  const theme = useMantineTheme();
  return useMemo(() => {
    const look: ChartLook = { text: theme.colors.gray[7], font: `12px ${theme.fontFamily}` };
    const series = (metrics: typeof METRICS, value: (key: Metric) => number[]) =>
      metrics.map((m) => ({ label: m.label, color: parseThemeColor({ color: m.color, theme }).value, values: value(m.key) }));
    const perDay = (metrics: typeof METRICS): ChartSpec => ({
      kind: 'lines',
      categoryName: 'Day',
      categories: overview.daily.map((d) => formatDay(d.date)),
      series: series(metrics, (key) => overview.daily.map((d) => d[key])),
    });
    const perProvider = (metrics: typeof METRICS): ChartSpec => ({
      kind: 'bars',
      categoryName: 'Provider',
      categories: overview.providers.map((p) => PROVIDER_LABEL[p.provider]),
      series: series(metrics, (key) => overview.providers.map((p) => p.totals[key])),
    });
    const chart = (spec: ChartSpec) => ({ table: tableOf(spec), drawing: chartOf(spec, look) });
    return {
      viewsPerDay: chart(perDay(VIEWS)),
      engagementPerDay: chart(perDay(ENGAGEMENT)),
      viewsPerProvider: chart(perProvider(VIEWS)),
      engagementPerProvider: chart(perProvider(ENGAGEMENT)),
    };
  }, [overview, theme]);
}

export function AnalyticsCharts({ overview }: { overview: Overview }) {
  const charts = useCharts(overview);
  const figures = [
    { id: 'views-per-day', title: 'Views per day', summary: busiestDay(overview.daily), chart: charts.viewsPerDay },
    {
      id: 'engagement-per-day',
      title: 'Likes, comments and shares per day',
      summary: `${formatCount(overview.totals.likes)} likes, ${formatCount(overview.totals.comments)} comments and ${formatCount(overview.totals.shares)} shares in ${overview.days} days.`,
      chart: charts.engagementPerDay,
    },
    {
      id: 'views-per-provider',
      title: 'Views per provider',
      summary: overview.providers.map((p) => `${PROVIDER_LABEL[p.provider]}: ${formatCount(p.totals.views)} views from ${formatCount(p.totals.posts)} post${p.totals.posts === 1 ? '' : 's'}.`).join(' ') || NO_PROVIDER,
      chart: charts.viewsPerProvider,
    },
    {
      id: 'engagement-per-provider',
      title: 'Likes, comments and shares per provider',
      summary: overview.providers.map((p) => `${PROVIDER_LABEL[p.provider]}: ${formatCount(p.totals.likes)} likes, ${formatCount(p.totals.comments)} comments, ${formatCount(p.totals.shares)} shares.`).join(' ') || NO_PROVIDER,
      chart: charts.engagementPerProvider,
    },
  ];

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      {figures.map(({ id, title, summary, chart }) => (
        <ChartFigure key={id} id={id} title={title} summary={summary} table={chart.table}>
          <UPlotChart {...chart.drawing} />
        </ChartFigure>
      ))}
    </SimpleGrid>
  );
}
