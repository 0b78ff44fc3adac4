/**
 * Durable storage for `--data FILE`: one file of JSON lines. The first line is a snapshot of every table,
 * each further line the rows one acknowledged write put or deleted. Every append is fsync'd before the
 * write is answered; compaction rewrites the file as a single snapshot (write temp, fsync, rename, fsync dir).
 * A torn last line (a crash mid-append of a write that was never acknowledged) is dropped on open.
 */
import { closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { TABLE_NAMES, type TableName, type TableRows } from "./model";

export type TableData = { [K in TableName]: TableRows[K][] };

/** One acknowledged write: rows put (whole row) and rows deleted. */
export interface JournalChange {
  p?: [TableName, unknown][];
  d?: [TableName, string][];
}

interface SnapshotLine {
  v: 1;
  snapshot: Partial<TableData>;
}

/** Compact once the journal holds this many change lines. */
const COMPACT_EVERY = 5000;

export class Journal {
  private fd: number;
  private changes = 0;

  private constructor(private readonly file: string, fd: number) {
    this.fd = fd;
  }

  /** Opens `file`, returning its replayed tables (null when the file does not exist yet). */
  static open(file: string): { journal: Journal; data: TableData | null } {
    let data: TableData | null = null;
    if (existsSync(file)) data = replay(file);
    const fd = openSync(file, "a");
    return { journal: new Journal(file, fd), data };
  }

  /** Appends one change and makes it durable before returning. */
  append(change: JournalChange, current: () => TableData): void {
    writeSync(this.fd, JSON.stringify(change) + "\n");
    fdatasyncSync(this.fd);
    this.changes++;
    if (this.changes >= COMPACT_EVERY) this.compact(current());
  }

  /** Atomically replaces the file with one snapshot line. */
  compact(data: TableData): void {
    const tmp = `${this.file}.tmp-${process.pid}`;
    const line: SnapshotLine = { v: 1, snapshot: data };
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, JSON.stringify(line) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    closeSync(this.fd);
    renameSync(tmp, this.file);
    fsyncDir(dirname(this.file));
    this.fd = openSync(this.file, "a");
    this.changes = 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

function emptyTables(): TableData {
  const data = {} as Record<TableName, unknown[]>;
  for (const t of TABLE_NAMES) data[t] = [];
  return data as TableData;
}

function replay(file: string): TableData {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const maps = new Map<TableName, Map<string, unknown>>();
  for (const t of TABLE_NAMES) maps.set(t, new Map());
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      // Only the last line can be torn by a crash; anything else is corruption.
      if (i >= lines.length - 2) return;
      throw new Error(`${file}:${i + 1}: unreadable journal line (${err instanceof Error ? err.message : String(err)})`);
    }
    if (i === 0 && isSnapshot(parsed)) {
      for (const t of TABLE_NAMES) {
        for (const row of parsed.snapshot[t] ?? []) maps.get(t)!.set((row as { id: string }).id, row);
      }
      return;
    }
    const change = parsed as JournalChange;
    for (const [t, row] of change.p ?? []) maps.get(t)?.set((row as { id: string }).id, row);
    for (const [t, id] of change.d ?? []) maps.get(t)?.delete(id);
  });
  const data = emptyTables() as Record<TableName, unknown[]>;
  for (const t of TABLE_NAMES) data[t] = [...maps.get(t)!.values()];
  return data as TableData;
}

function isSnapshot(v: unknown): v is SnapshotLine {
  return typeof v === "object" && v !== null && "snapshot" in v;
}
