/** The analytics page's names, colours and date words. */
import type { components } from '#client/types';

export type Overview = components['schemas']['AnalyticsOverview'];
export type SyncResult = components['schemas']['AnalyticsSync'];
export type Provider = Overview['providers'][number]['provider'];
export type Metric = 'views' | 'likes' | 'comments' | 'shares';

export const PROVIDER_LABEL: Record<Provider, string> = { provider_a: 'Provider A', provider_b: 'Provider B' };

export const METRICS: { key: Metric; label: string; color: string }[] = [
  { key: 'views', label: 'Views', color: 'violet.7' },
  { key: 'likes', label: 'Likes', color: 'pink.7' },
  { key: 'comments', label: 'Comments', color: 'teal.7' },
  { key: 'shares', label: 'Shares', color: 'orange.7' },
];

export const WINDOWS = ['7', '30', '90'] as const;
export type WindowDays = (typeof WINDOWS)[number];

// The API's days are UTC calendar days; shown in UTC so a day never shifts to its neighbour.
const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const formatDay = (date: string): string => day.format(new Date(`${date}T00:00:00Z`));

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));

const count = new Intl.NumberFormat();
export const formatCount = (n: number): string => count.format(n);
