/**
 * What to act on: the window's figures per video, per hook and per channel, most views first. Only
 * posts made in the studio name a video and a hook; every post counts for its channel.
 */
import type { ReactNode } from 'react';
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ResponsiveTable } from '../../components/ResponsiveTable';
import { formatCount, PROVIDER_LABEL, type Overview } from './analytics-words';
import { channelRowName, engagementRate, videoRowName, videoStillThere, type VideoRow } from './breakdown-words';

type Figures = Pick<VideoRow, 'views' | 'likes' | 'comments' | 'shares' | 'posts'>;
const FIGURE_COLUMNS = ['Views', 'Likes', 'Comments', 'Shares', 'Engagement', 'Posts'] as const;

function FigureCells({ row }: { row: Figures }) {
  const values = [row.views, row.likes, row.comments, row.shares].map(formatCount);
  return (
    <>
      {[...values, engagementRate(row), formatCount(row.posts)].map((value, i) => (
        <Table.Td key={FIGURE_COLUMNS[i]} data-label={FIGURE_COLUMNS[i]}>
          {value}
        </Table.Td>
      ))}
    </>
  );
}

interface BreakdownProps<Row extends Figures> {
  id: string;
  title: string;
  /** The first column: what a row is. */
  nameColumn: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  name: (row: Row) => ReactNode;
  empty: string;
}

function Breakdown<Row extends Figures>({ id, title, nameColumn, rows, rowKey, name, empty }: BreakdownProps<Row>) {
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h4" id={id} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="gray.7">
          {empty}
        </Text>
      ) : (
        <ResponsiveTable columns={[nameColumn, ...FIGURE_COLUMNS]} minWidth={720} verticalSpacing="xs" aria-labelledby={id}>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              <Table.Td data-label={nameColumn}>{name(row)}</Table.Td>
              <FigureCells row={row} />
            </Table.Tr>
          ))}
        </ResponsiveTable>
      )}
    </section>
  );
}

const NOT_FROM_STUDIO = 'No posts made in the studio in this window (or not synced since): publish one from a video, then sync.';

export function Breakdowns({ overview }: { overview: Overview }) {
  return (
    <Stack gap="xl">
      <Breakdown
        id="by-video-heading"
        title="Per video"
        nameColumn="Video"
        rows={overview.by_video}
        rowKey={(row) => String(row.video_id)}
        name={(row) =>
          videoStillThere(row) ? (
            <Anchor component={Link} to={`/videos/${row.video_id}`} size="sm">
              {videoRowName(row)}
            </Anchor>
          ) : (
            `${videoRowName(row)} (deleted)`
          )
        }
        empty={NOT_FROM_STUDIO}
      />
      <Breakdown
        id="by-hook-heading"
        title="Per hook"
        nameColumn="Hook"
        rows={overview.by_hook}
        rowKey={(row) => row.hook_text}
        name={(row) => `${row.hook_text} (${row.videos} video${row.videos === 1 ? '' : 's'})`}
        empty="No post of a video with a hook caption in this window."
      />
      <Breakdown
        id="by-channel-heading"
        title="Per channel"
        nameColumn="Channel"
        rows={overview.by_channel}
        rowKey={(row) => `${row.provider}:${row.channel_id ?? row.platform ?? ''}`}
        name={(row) => `${channelRowName(row)} (${PROVIDER_LABEL[row.provider]})`}
        empty="No posts in this window (or not synced since)."
      />
    </Stack>
  );
}
