/** Recovery codes, shown once: a list, copy and download, and the warning that they are not shown again. */
import { Button, CopyButton, Notice } from '../../../components/ui.tsx';

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join('\n') + '\n';
  return (
    <div className="stack">
      <Notice kind="warning">
        <strong>Save these recovery codes now.</strong> Each one signs you in once if you lose your authenticator. They are not shown again.
      </Notice>
      <ul className="codes" data-testid="recovery-codes">
        {codes.map((c) => <li key={c}><code>{c}</code></li>)}
      </ul>
      <div className="row">
        <CopyButton text={text} label="Copy codes" />
        <Button onClick={() => {
          const a = document.createElement('a');
          a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
          a.download = 'netloom-recovery-codes.txt';
          a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 1000);
        }}>Download</Button>
      </div>
    </div>
  );
}
