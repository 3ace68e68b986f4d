/**
 * Picks the track a video plays under it: the built-in ones with their mood and tempo, then the
 * account's own, each with a button that plays its preview (one at a time, in one <audio>). A track
 * of one's own can be uploaded here (it is then chosen) and deleted.
 */
import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconUpload } from '../../components/icons';
import { useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { MusicTrack } from '#client/types';
import { api } from '../../api/client';
import { UploadProgress, useUpload } from '../../api/upload';
import { ConfirmButton } from '../../components/ConfirmButton';
import { FileDropField } from '../../components/FileDropField';
import { ProblemAlert } from '../../components/ProblemAlert';
import { QueryStatus } from '../../components/QueryStatus';
import { MUSIC_KEY, useMusic } from './useMusic';

interface Props {
  value: string | null;
  onChange: (id: string | null) => void;
  error?: string;
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

/** The one preview that plays: a second play stops the first. */
function usePreview() {
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => () => audio.current?.pause(), []);
  const toggle = (track: MusicTrack) => {
    const element = audio.current;
    if (!element) return;
    setError(null);
    if (playing === track.id) {
      element.pause();
      setPlaying(null);
      return;
    }
    element.src = track.preview_url;
    setPlaying(track.id);
    element.play().catch((caught: unknown) => {
      // A newer choice interrupts this one's play(): not a failure.
      if (caught instanceof DOMException && caught.name === 'AbortError') return;
      setPlaying((current) => (current === track.id ? null : current));
      setError(new Error(`“${track.name}” could not be played.`));
    });
  };
  const element = <audio ref={audio} preload="none" onEnded={() => setPlaying(null)} />;
  return { playing, toggle, error, clearError: () => setError(null), element };
}

function TrackRow({ track, playing, onToggle, onDeleted }: { track: MusicTrack; playing: boolean; onToggle: () => void; onDeleted?: () => void }) {
  const about = track.built_in ? `${track.mood} · ${track.bpm} bpm` : minutes(track.duration_s);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Radio value={track.id} label={track.name} description={about} />
      <Group gap="xs" wrap="nowrap">
        <ActionIcon variant="light" size="lg" aria-label={`${playing ? 'Pause' : 'Play'} ${track.name}`} aria-pressed={playing} onClick={onToggle}>
          {playing ? <IconPlayerPause size={18} /> : <IconPlayerPlay size={18} />}
        </ActionIcon>
        {onDeleted && (
          <ConfirmButton
            label="Delete"
            aria-label={`Delete ${track.name}`}
            title={`Delete ${track.name}?`}
            message="The track leaves your library. Videos already made keep their sound; a job still waiting for it fails."
            onConfirm={() => unwrap(api.DELETE('/music/{music_id}', { params: { path: { music_id: track.id } } }))}
            onDone={onDeleted}
          />
        )}
      </Group>
    </Group>
  );
}

/** Sends the file to storage, then adds it to the library; answers the new track. */
function useTrackUpload() {
  const { upload, progress, reset } = useUpload('music');
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const add = async (file: File): Promise<MusicTrack | null> => {
    setError(null);
    setAdding(true);
    try {
      const sent = await upload(file);
      return (await unwrap(api.POST('/music', { body: { audio_upload_id: sent.id } }))).data;
    } catch (caught) {
      setError(caught);
      return null;
    } finally {
      setAdding(false);
      reset();
    }
  };
  return { add, adding, progress, error, clearError: () => setError(null) };
}

export function MusicPicker({ value, onChange, error }: Props) {
  const queries = useQueryClient();
  const music = useMusic();
  const preview = usePreview();
  const upload = useTrackUpload();
  const [file, setFile] = useState<File | null>(null);
  const tracks = music.data ?? [];
  const builtIn = tracks.filter((track) => track.built_in);
  const own = tracks.filter((track) => !track.built_in);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return;
    const track = await upload.add(chosen);
    setFile(null);
    if (!track) return;
    await queries.invalidateQueries({ queryKey: MUSIC_KEY });
    onChange(track.id);
  };
  const deleted = (id: string) => {
    if (value === id) onChange(null);
    void queries.invalidateQueries({ queryKey: MUSIC_KEY });
  };
  const row = (track: MusicTrack) => (
    <TrackRow key={track.id} track={track} playing={preview.playing === track.id} onToggle={() => preview.toggle(track)} onDeleted={track.built_in ? undefined : () => deleted(track.id)} />
  );

  return (
    <Stack gap="xs">
      {preview.element}
      <QueryStatus query={music} loading="Loading the music" size="sm" />
      {music.isSuccess && (
        <Radio.Group label="Music track" value={value} onChange={onChange} error={error} withAsterisk>
          <Stack gap="xs" mt={4}>
            <Text size="xs" fw={600} c="gray.7">
              Built-in
            </Text>
            {builtIn.map(row)}
            <Text size="xs" fw={600} c="gray.7" mt="xs">
              Your tracks
            </Text>
            {own.length ? own.map(row) : <Text size="xs" c="gray.7">None yet: upload one below.</Text>}
          </Stack>
        </Radio.Group>
      )}
      <ProblemAlert error={preview.error} onClose={preview.clearError} />
      <FileDropField
        purpose="music"
        label="Upload a track"
        description="It is levelled to the videos’ loudness."
        leftSection={upload.adding ? <Loader size={14} /> : <IconUpload size={16} />}
        value={file}
        onChange={(chosen) => void choose(chosen)}
        disabled={upload.adding}
      />
      <UploadProgress value={upload.progress} label="Track upload" />
      <ProblemAlert error={upload.error} onClose={upload.clearError} />
    </Stack>
  );
}
