/**
 * The studio's pages: one list that the router and the navigation both read. Each page is its own
 * chunk, loaded when first visited, so the first load carries only the shell.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import {
  IconBuildingStore,
  IconChartBar,
  IconCreditCard,
  IconGauge,
  IconKey,
  IconLibraryPhoto,
  IconListDetails,
  IconMovie,
  IconShare,
  IconSparkles,
  IconUserCircle,
  type StudioIcon,
} from '../components/icons';

export interface StudioPage {
  path: string;
  /** In the navigation when it has a label; detail pages have none. */
  label?: string;
  icon?: StudioIcon;
  Page: LazyExoticComponent<ComponentType>;
}

export const PAGES: StudioPage[] = [
  { path: '/create', label: 'New video', icon: IconSparkles, Page: lazy(() => import('../pages/create/CreateVideoPage')) },
  { path: '/jobs', label: 'Jobs', icon: IconListDetails, Page: lazy(() => import('../pages/jobs/JobsPage')) },
  { path: '/jobs/:id', Page: lazy(() => import('../pages/jobs/JobPage')) },
  { path: '/batches/:id', Page: lazy(() => import('../pages/batches/BatchPage')) },
  { path: '/videos', label: 'Videos', icon: IconMovie, Page: lazy(() => import('../pages/videos/VideosPage')) },
  { path: '/videos/:id', Page: lazy(() => import('../pages/videos/VideoPage')) },
  { path: '/products', label: 'Products', icon: IconBuildingStore, Page: lazy(() => import('../pages/products/ProductsPage')) },
  { path: '/avatars', label: 'Avatars', icon: IconUserCircle, Page: lazy(() => import('../pages/avatars/AvatarsPage')) },
  { path: '/library', label: 'Reaction library', icon: IconLibraryPhoto, Page: lazy(() => import('../pages/library/LibraryPage')) },
  { path: '/social', label: 'Social', icon: IconShare, Page: lazy(() => import('../pages/social/SocialPage')) },
  { path: '/analytics', label: 'Analytics', icon: IconChartBar, Page: lazy(() => import('../pages/analytics/AnalyticsPage')) },
  { path: '/usage', label: 'Usage', icon: IconGauge, Page: lazy(() => import('../pages/usage/UsagePage')) },
  { path: '/plans', label: 'Plans', icon: IconCreditCard, Page: lazy(() => import('../pages/plans/PlansPage')) },
  { path: '/settings', label: 'Settings', icon: IconKey, Page: lazy(() => import('../pages/settings/SettingsPage')) },
];

/** Where a signed-in person lands. */
export const HOME = '/create';
