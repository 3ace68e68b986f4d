/**
 * Watches the newest jobs while any of them runs and says when one finishes while the person is
 * elsewhere in the studio: an in-app notification, the tab's title, and the browser's own notification
 * when the tab is in the background and the person allowed it (NotifyWhenDoneButton asks).
 */
import { useEffect, useRef } from 'react';
import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { Job } from '#client/types';
import { fetchNewestJobs, NEWEST_JOBS_KEY } from '../api/newest-jobs';
import { videoName } from '../pages/videos/video-name';
import { useProductNames } from '../pages/videos/video-names';
import { alertOf, finishedSince, showsJob, tabTitle } from './job-alerts';

const WATCH_MS = 5_000;

const anyRunning = (jobs: Job[] | undefined) => !!jobs?.some((job) => job.status === 'queued' || job.status === 'processing');

function tellTheBrowser(title: string, body: string, open: () => void) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.visibilityState !== 'hidden') return;
  const shown = new Notification(title, { body, tag: title + body });
  shown.onclick = () => {
    window.focus();
    open();
    shown.close();
  };
}

export function JobWatcher() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const jobs = useQuery({
    // Under the jobs list's key: a new job, an approval or a regeneration (which invalidate it) wakes the watch.
    queryKey: NEWEST_JOBS_KEY,
    queryFn: fetchNewestJobs,
    refetchInterval: (query) => (anyRunning(query.state.data) ? WATCH_MS : false),
    staleTime: 0,
  });
  const productName = useProductNames(jobs.data?.map((job) => job.product_id) ?? []);
  const seen = useRef<Map<number, Job['status']> | null>(null);
  // Finished jobs not looked at yet: they are counted in the tab's title.
  const unseen = useRef<Job[]>([]);

  useEffect(() => {
    if (!jobs.data) return;
    const finished = seen.current ? finishedSince(seen.current, jobs.data) : [];
    seen.current = new Map(jobs.data.map((job) => [job.id, job.status]));
    // A finished job is a new video and a charged unit: the lists and the units left shown elsewhere follow.
    if (finished.length) void Promise.all([queries.invalidateQueries({ queryKey: ['videos'] }), queries.invalidateQueries({ queryKey: ['usage'] })]);
    const news = (finished as Job[]).filter((job) => !showsJob(window.location.pathname, job));
    if (!news.length) return;
    unseen.current = [...unseen.current, ...news];
    document.title = tabTitle(unseen.current.length);
    for (const job of news) {
      const alert = alertOf(job);
      const name = videoName({ id: job.video_id, productName: productName(job.product_id), hookText: job.hook_text });
      const open = () => navigate(alert.path);
      notifications.show({
        title: alert.title,
        color: alert.color,
        autoClose: 10_000,
        message: (
          <Text size="sm">
            {name}.{' '}
            <Anchor component="button" type="button" size="sm" underline="always" onClick={open}>
              Open
            </Anchor>
          </Text>
        ),
      });
      tellTheBrowser(alert.title, name, open);
    }
    // Names and navigation are read when a job finishes; only a new list is news.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobs.data]);

  // Looking at a finished job's page (or the list of jobs) is having seen it.
  useEffect(() => {
    unseen.current = pathname === '/jobs' ? [] : unseen.current.filter((job) => !showsJob(pathname, job));
    document.title = tabTitle(unseen.current.length);
  }, [pathname]);
  // Signed out: nothing of this account is waiting.
  useEffect(() => () => void (document.title = tabTitle(0)), []);
  return null;
}
