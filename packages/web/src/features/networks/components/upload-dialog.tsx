/**
 * Upload a network from a file: JSON, Excel (Nodes/Edges sheets), GEXF, GraphML, or a CSV edge list with
 * an optional nodes CSV. Pick or drop the file, optionally name it; a rejected file's problems are listed
 * each with its sheet/row/column or line. An accepted file's warnings (what was converted, dropped or
 * interpreted, with where) are listed before the dialog closes. Templates of each format are one click away.
 */
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useImportNetwork } from '../api/networks.ts';
import type { ImportedNetwork } from '../../../api/types.ts';
import { FILE_FORMATS, FORMAT_IDS } from '@netloom/protocol/http';
import { Dialog } from '../../../components/dialog.tsx';
import { Button, ErrorNotice, Select, TextArea, TextField } from '../../../components/ui.tsx';

type Directedness = 'file' | 'directed' | 'undirected';

const ACCEPT = '.json,.xlsx,.xlsm,.gexf,.graphml,.xml,.csv,.tsv,.txt,.zip';

function formatOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return { json: 'JSON', xlsx: 'Excel', xlsm: 'Excel', gexf: 'GEXF', graphml: 'GraphML', xml: 'GraphML', csv: 'CSV', tsv: 'CSV', txt: 'CSV', zip: 'CSV (zip)' }[ext] ?? 'unknown';
}

function DropZone({ label, file, onFile, testId }: { label: string; file: File | null; onFile: (f: File | null) => void; testId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) onFile(f);
  };
  return (
    <div className={`dropzone${over ? ' dropzone-over' : ''}${file ? ' dropzone-has' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={drop}>
      <label htmlFor={id} className="dropzone-label">{label}</label>
      <input ref={input} id={id} type="file" accept={ACCEPT} data-testid={testId} className="visually-hidden" onChange={(e) => onFile(e.target.files?.[0] ?? null)} />
      {file ? (
        <p className="dropzone-file"><strong>{file.name}</strong> · {formatOf(file.name)} · {(file.size / 1024).toFixed(file.size < 10240 ? 1 : 0)} KB</p>
      ) : (
        <p className="muted">Drop a file here, or</p>
      )}
      <div className="row">
        <Button onClick={() => input.current?.click()}>{file ? 'Choose another file' : 'Choose a file'}</Button>
        {file && <Button variant="ghost" onClick={() => { onFile(null); if (input.current) input.current.value = ''; }}>Remove</Button>}
      </div>
    </div>
  );
}

export function UploadDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [nodesFile, setNodesFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [status, setStatus] = useState<'Private' | 'Public'>('Private');
  const [directed, setDirected] = useState<Directedness>('file');
  const [imported, setImported] = useState<ImportedNetwork | null>(null);
  const upload = useImportNetwork();
  const imported_ = (n: ImportedNetwork) => {
    reset();
    if (n.warnings?.length) setImported(n);
    else onClose();
  };
  const reset = () => {
    setFile(null);
    setNodesFile(null);
    setName('');
    setDescription('');
    setStatus('Private');
    setDirected('file');
    setImported(null);
    upload.reset();
  };
  const isCsv = file ? formatOf(file.name) === 'CSV' : false; // a bare edge list may come with a nodes file
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    const form = new FormData();
    // Only what the person chose: name, description and directedness otherwise come from the file (its
    // Network sheet, GEXF edge type, ...; else the file name and directed), docs/api/import-export.md.
    if (name.trim()) form.append('name', name.trim());
    if (description.trim()) form.append('description', description.trim());
    form.append('status', status);
    if (directed !== 'file') form.append('isDirected', String(directed === 'directed'));
    form.append('file', file, file.name);
    if (isCsv && nodesFile) form.append('nodesFile', nodesFile, nodesFile.name);
    upload.mutate(form, { onSuccess: imported_ });
  };
  if (imported) {
    return (
      <Dialog open={open} title={`Imported “${imported.name}” with ${imported.warnings.length === 1 ? 'a warning' : `${imported.warnings.length} warnings`}`} onClose={() => { reset(); onClose(); }} wide>
        <div className="stack" data-testid="upload-warnings">
          <p className="muted">The network was created. This is what the file held that was converted, dropped or interpreted:</p>
          <ul>
            {imported.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
          <div className="dialog-actions">
            <Button variant="primary" onClick={() => { reset(); onClose(); }}>Done</Button>
          </div>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog open={open} title="Upload a network" onClose={() => { reset(); onClose(); }} wide>
      <form className="stack" onSubmit={submit} aria-describedby="upload-formats">
        <p id="upload-formats" className="muted">
          JSON, Excel (<code>Nodes</code> and <code>Edges</code> sheets), GEXF 1.2/1.3, GraphML, or a CSV edge list (with an optional nodes CSV, or both in a zip). <a href="/docs/api/import-export">Format details</a>.
        </p>
        <DropZone label={isCsv ? 'Edges file' : 'Network file'} file={file} onFile={(f) => { setFile(f); upload.reset(); }} testId="upload-file" />
        {isCsv && <DropZone label="Nodes file (optional CSV: an Id column, then attributes)" file={nodesFile} onFile={setNodesFile} testId="upload-nodes-file" />}
        <TextField label="Name" name="name" placeholder="As in the file, else the file name" value={name} onChange={(e) => setName(e.target.value)} />
        <div className="grid-2">
          <Select label="Visibility" name="status" value={status} onChange={(e) => setStatus(e.target.value as 'Private' | 'Public')}>
            <option value="Private">Private</option>
            <option value="Public">Public (listed in Discover)</option>
          </Select>
          <Select label="Edges" name="isDirected" value={directed} onChange={(e) => setDirected(e.target.value as Directedness)}>
            <option value="file">As the file says (else directed)</option>
            <option value="directed">Directed</option>
            <option value="undirected">Undirected</option>
          </Select>
        </div>
        <TextArea label="Description" name="description" rows={2} placeholder="As in the file" value={description} onChange={(e) => setDescription(e.target.value)} />
        <ErrorNotice error={upload.error} title="The file was not imported" />
        <div className="dialog-actions">
          <div className="templates">
            <span className="muted">Templates:</span>
            {FORMAT_IDS.map((id) => (
              <a key={id} href={`/api/v2/templates/${id}`} download data-testid={`template-${id}`}>{FILE_FORMATS[id].label}</a>
            ))}
          </div>
          <div className="row">
            <Button onClick={() => { reset(); onClose(); }}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={!file} busy={upload.isPending}>Upload</Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
