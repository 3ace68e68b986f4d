/** The overview query, one cache entry per window, shared by the Analytics page and New video's best hook. */
import { unwrap } from '#client/result';
import { api } from '../../api/client';

export const analyticsKey = (days: number) => ['analytics', days] as const;

export const fetchOverview = async (days: number) => (await unwrap(api.GET('/analytics', { params: { query: { days } } }))).data;
