/**
 * A file field that also takes a file dropped on it, states the API's limits for its kind of file
 * before anything is chosen, and checks a chosen file in the browser (kind, size, then length, shape
 * and pixels from its metadata) before a byte is sent: only a file that passes reaches `onChange`.
 */
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Box, FileInput, Loader } from '@mantine/core';
import { acceptOf, hintOf, type MediaFacts } from '../intake/file-check';
import { FILE_RULES, type FilePurpose } from '../intake/limits';
import { checkFile } from '../intake/media-facts';
import classes from './fields.module.css';

interface Props {
  purpose: FilePurpose;
  label: string;
  /** What the file is for; the limits follow it. */
  description?: string;
  value: File | null;
  onChange: (file: File | null) => void;
  leftSection?: ReactNode;
  disabled?: boolean;
  /** An error from outside the field (the form's own checks). */
  error?: ReactNode;
  withAsterisk?: boolean;
  /** Told while a chosen file is being checked, for a form that should not be sent meanwhile. */
  onCheckingChange?: (checking: boolean) => void;
  /** Told what the browser read of the file taken (null when none is, or nothing could be read), for a form that asks more of it. */
  onFacts?: (facts: MediaFacts | null) => void;
}

export function FileDropField({ purpose, label, description, value, onChange, leftSection, disabled, error, withAsterisk, onCheckingChange, onFacts }: Props) {
  const rule = FILE_RULES[purpose];
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setCheckingState] = useState(false);
  const setChecking = (next: boolean) => {
    setCheckingState(next);
    onCheckingChange?.(next);
  };
  const [over, setOver] = useState(false);
  // Only the latest choice's verdict counts: an earlier file's check may end after it.
  const latest = useRef(0);

  const choose = async (file: File | null) => {
    const turn = ++latest.current;
    setProblem(null);
    if (!file) {
      setChecking(false);
      onFacts?.(null);
      onChange(null);
      return;
    }
    setChecking(true);
    const { refusal, facts } = await checkFile(rule, file);
    if (turn !== latest.current) return;
    setChecking(false);
    setProblem(refusal);
    onFacts?.(refusal ? null : facts);
    onChange(refusal ? null : file);
  };

  const dragging = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const drop = (event: DragEvent) => {
    if (disabled) return;
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 1) {
      setProblem(`Drop one ${rule.what} at a time.`);
      return;
    }
    if (files[0]) void choose(files[0]);
  };

  return (
    <Box className={classes.drop} data-over={over || undefined} onDragEnter={dragging} onDragOver={dragging} onDragLeave={() => setOver(false)} onDrop={drop}>
      <FileInput
        label={label}
        description={`${description ? `${description} ` : ''}${hintOf(rule)}. Drop the file here, or click to choose it.`}
        placeholder={checking ? 'Checking the file…' : undefined}
        accept={acceptOf(rule)}
        value={value}
        onChange={(file) => void choose(file)}
        error={problem ?? error}
        leftSection={checking ? <Loader size={14} aria-label="Checking the file" /> : leftSection}
        disabled={disabled}
        withAsterisk={withAsterisk}
        clearable
        clearButtonProps={{ 'aria-label': `Remove the chosen ${rule.what}` }}
      />
    </Box>
  );
}
