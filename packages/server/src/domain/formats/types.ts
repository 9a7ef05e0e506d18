/** What the format modules read and write (docs/api/import-export.md). */
import type { NetworkJSON } from '@netloom/engine';
import type { ImportLimits } from './builder.ts';
import type { ImportWarning } from './problems.ts';

export type { ImportLimits, ImportWarning };

/** An uploaded file, saved to a temporary file while it is read. */
export interface UploadedFile {
  path: string;
  /** The client's file name (for messages and format detection); may be empty. */
  filename: string;
  bytes: number;
}

/** What a file says about the network besides its data (each part only when the file carries it). */
export interface ImportedNetwork {
  networkJSON: NetworkJSON;
  isDirected?: boolean;
  name?: string;
  description?: string;
  status?: 'Public' | 'Private';
  /** What was converted, dropped or interpreted, with where (docs/api/import-export.md, "Warnings"). */
  warnings?: ImportWarning[];
}

/** A stored network as the exporters see it. */
export interface ExportableNetwork {
  name: string;
  description: string;
  isDirected: boolean;
  networkJSON: NetworkJSON;
  /** The network resource (metadata) for the JSON export. */
  resource: Record<string, unknown>;
}

export interface ExportedFile {
  body: Buffer;
  contentType: string;
  extension: string;
}
