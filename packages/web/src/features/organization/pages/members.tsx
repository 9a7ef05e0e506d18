/**
 * `/organization`: the organization's overview (plan, members, networks, embedding seats), its members with
 * roles — invite by link (an existing account accepts it signed in as itself), change a role, suspend or
 * reinstate — the require-MFA switch, and leaving the organization. Members who are not Owners or Admins
 * see the same page read-only.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../api/client.ts';
import {
  useInvite,
  useLeaveOrganization,
  usePendingInvitations,
  useRevokeInvitation,
  useOrgMembers,
  useOrgOverview,
  useReinstateMember,
  useRequireMfa,
  useSetMemberRole,
  useSuspendMember,
  type CreatedLink,
  type OrgMember,
  type OrgRole,
  type PendingInvitation,
} from '../api/organization.ts';
import { settableRoles } from '../roles.ts';
import { useSession } from '../../../api/session.ts';
import { Badge, Button, CopyButton, DateText, Empty, ErrorNotice, Loading, Notice, PageHeader, Select, TextField, Stat, num } from '../../../components/ui.tsx';
import { Confirm, ConfirmAction, Dialog } from '../../../components/dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { APP_PATHS } from '@netloom/protocol/http';
import { OrgTabs } from '../components/tabs.tsx';

export default function OrganizationMembers() {
  const overview = useOrgOverview();
  const members = useOrgMembers();
  const { data: session } = useSession();
  const [inviting, setInviting] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const navigate = useNavigate();
  const [suspending, setSuspending] = useState<OrgMember | null>(null);
  const o = overview.data;
  const canManage = !!o?.canManage;

  const setRole = useSetMemberRole();
  const suspend = useSuspendMember();
  const reinstate = useReinstateMember();
  const requireMfa = useRequireMfa();
  const leave = useLeaveOrganization();

  if (overview.error) {
    return (
      <>
        <PageHeader title="Organization" />
        <Empty title="You are not in an organization">
          <p>Organizations share networks, credentials and embedding. An organization's Owner or Admin can invite you.</p>
        </Empty>
      </>
    );
  }
  const people = (members.data?.members ?? []).filter((m) => !m.embedded);
  const isSelf = (m: OrgMember) => m._id === session?.user.id;
  const rolesFor = (m: OrgMember) => (canManage && !isSelf(m) ? settableRoles(o?.role, m.role) : []);
  const managed = (members.data?.members ?? []).filter((m) => m.embedded);
  return (
    <>
      <PageHeader title={o ? o.name : 'Organization'} subtitle={o ? <>Your role: <strong>{o.role}</strong></> : undefined}>
        {o && <Button onClick={() => setLeaving(true)}>Leave organization</Button>}
        {canManage && <Button variant="primary" onClick={() => setInviting(true)}>Invite member</Button>}
      </PageHeader>
      <OrgTabs overview={o} />
      <div className="stack-lg">
      {overview.isPending && <Loading />}
      {o && (
        <section className="stats" aria-label="Overview">
          <Stat label="Plan">{o.plan}</Stat>
          <Stat label="Members">{num(o.memberCount)}</Stat>
          <Stat label="Networks">{num(o.networkCounts.public)} public · {num(o.networkCounts.private)} private</Stat>
          <Stat label="Embedding seats">{o.embedding.enabled ? `${num(o.embedding.seatsUsed)} / ${num(o.embedding.seats)} used` : 'off'}</Stat>
        </section>
      )}
      {o && canManage && (
        <section className="card stack" aria-labelledby="security-title">
          <h2 id="security-title">Security</h2>
          <label className="check">
            <input
              type="checkbox"
              checked={o.requireMfa}
              disabled={requireMfa.isPending}
              onChange={(e) =>
                requireMfa.mutate(e.target.checked)
              }
            />
            <span>Require two-factor authentication (TOTP) for every member</span>
          </label>
          <p className="muted">
            Organization credentials (owned by the organization, not by a person) are created on the <Link to={APP_PATHS.credentials}>Credentials</Link> page.
            Networks created with an organization credential need an <code>owner</code> (a member who can own networks) unless its creator can own them.
          </p>
        </section>
      )}
      <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <ErrorNotice error={members.error} />
        {members.isPending && <Loading />}
        {members.data && (
          <DataTable
            testId="members-table"
            rows={people}
            rowKey={(m) => m._id}
            rowAttributes={(m) => ({ 'data-testid': `member-${m.email}` })}
            columns={[
              { label: 'Name', cell: (m) => <>{m.name} {isSelf(m) && <Badge>You</Badge>}</> },
              { label: 'E-mail', cell: (m) => m.email },
              {
                label: 'Role',
                cell: (m) =>
                  rolesFor(m).length > 0 ? (
                    <select
                      className="input input-compact"
                      aria-label={`Role of ${m.name}`}
                      value={m.role}
                      onChange={(e) =>
                        setRole.mutate({ id: m._id, role: e.target.value as OrgRole })
                      }
                    >
                      {rolesFor(m).map((r) => <option key={r} value={r}>{r}</option>)}
                    </select>
                  ) : (
                    m.role
                  ),
              },
              { label: 'Status', cell: (m) => (m.status === 'active' ? 'Active' : <Badge tone="private">{m.status === 'suspended' ? 'Suspended' : 'Unverified'}</Badge>) },
              { label: 'Joined', cell: (m) => <DateText iso={m.joined} /> },
              canManage && {
                label: 'Actions',
                actions: true,
                // only where the role could be set: only an Owner suspends or reinstates an Owner (roles.ts)
                cell: (m) =>
                  rolesFor(m).length === 0 ? null : m.status === 'suspended' ? (
                    <Button onClick={() => reinstate.mutate(m._id)}>Reinstate</Button>
                  ) : (
                    <Button variant="danger" onClick={() => setSuspending(m)} aria-label={`Suspend ${m.name}`}>Suspend</Button>
                  ),
              },
            ]}
          />
        )}
        {managed.length > 0 && (
          <p className="muted">
            {managed.length} managed (embedded) {managed.length === 1 ? 'user is' : 'users are'} part of the organization too; {canManage ? <Link to={APP_PATHS.organizationEmbedding}>manage them in Embedding</Link> : 'admins manage them in Embedding'}.
          </p>
        )}
      </section>
      {canManage && <PendingInvitations />}
      </div>
      <InviteDialog open={inviting} roles={settableRoles(o?.role, null)} onClose={() => setInviting(false)} />
      <Confirm
        open={leaving}
        title="Leave this organization?"
        confirmLabel="Leave"
        onClose={() => setLeaving(false)}
        onConfirm={() =>
          leave.mutateAsync(o).then(
            () => {
              setLeaving(false);
              navigate(APP_PATHS.networks);
            },
            () => undefined,
          )
        }
      >
        <p>
          The networks you created in <strong>{o?.name}</strong> stay the organization's (you keep owning them); the organization credentials you created are revoked. Your personal networks were never the organization's. To join again you need a new invitation.
        </p>
      </Confirm>
      <ConfirmAction
        item={suspending}
        title="Suspend this member?"
        confirmLabel="Suspend"
        onClose={() => setSuspending(null)}
        run={(m) => suspend.mutateAsync(m._id)}
      >
        <p>
          <strong>{suspending?.name}</strong> is signed out everywhere at once, and their own API credentials stop working. Their networks stay. You can reinstate them later.
        </p>
      </ConfirmAction>
    </>
  );
}

function InviteDialog({ open, roles, onClose }: { open: boolean; roles: readonly OrgRole[]; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrgRole>('Standard User');
  const [link, setLink] = useState<CreatedLink | null>(null);
  const invite = useInvite();
  const close = () => {
    setEmail('');
    setRole('Standard User');
    setLink(null);
    invite.reset();
    onClose();
  };
  return (
    <Dialog open={open} title="Invite a member" onClose={close}>
      {link ? (
        <div className="stack">
          <Notice kind="success">Send this link to {email}. It works once, until <DateText iso={link.expiresAt} />.</Notice>
          <div className="token-row">
            <code className="token" data-testid="invite-url">{link.url}</code>
            <CopyButton text={link.url} label="Copy link" />
          </div>
          <div className="form-actions"><Button variant="primary" onClick={close}>Done</Button></div>
        </div>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ email: email.trim(), role }, { onSuccess: setLink });
          }}
        >
          <p className="muted">Netloom sends no e-mail: you pass the link on. Someone new chooses a password; someone who already has a Netloom account signs in and accepts. Either way they join with this role only when they do.</p>
          <TextField label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={invite.error ? errorText(invite.error) : undefined} />
          <RoleSelect roles={roles} value={role} onChange={setRole} />
          <div className="form-actions">
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="primary" busy={invite.isPending} disabled={!email.trim()}>Create link</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function RoleSelect({ roles, value, onChange }: { roles: readonly OrgRole[]; value: OrgRole; onChange: (r: OrgRole) => void }) {
  return (
    <Select label="Role" value={value} onChange={(e) => onChange(e.target.value as OrgRole)} hint={`Access-only members view networks shared with them and cannot own networks.${roles.includes('Owner') ? '' : ' Only an Owner makes someone Owner.'}`}>
      {roles.map((r) => <option key={r} value={r}>{r}</option>)}
    </Select>
  );
}

/** Invitations not yet accepted, revoked or expired, with Revoke (Owners and Admins). */
function PendingInvitations() {
  const list = usePendingInvitations(true);
  const revoke = useRevokeInvitation();
  const [confirming, setConfirming] = useState<PendingInvitation | null>(null);
  const invitations = list.data?.invitations ?? [];
  return (
    <section aria-labelledby="invitations-title" data-testid="pending-invitations">
      <h2 id="invitations-title">Pending invitations</h2>
      <ErrorNotice error={list.error ?? revoke.error} />
      {list.isPending && <Loading />}
      {list.data && invitations.length === 0 && <p className="muted">No invitation is waiting to be accepted.</p>}
      {invitations.length > 0 && (
        <DataTable
          rows={invitations}
          rowKey={(i) => i.id}
          rowAttributes={(i) => ({ 'data-invitation': i.email })}
          columns={[
            { label: 'E-mail', cell: (i) => i.email },
            { label: 'Role', cell: (i) => i.role ?? '—' },
            { label: 'Invited by', cell: (i) => i.invitedBy ?? '—' },
            { label: 'Expires', cell: (i) => <DateText iso={i.expiresAt} /> },
            { label: 'Actions', actions: true, cell: (i) => <Button variant="danger" aria-label={`Revoke the invitation of ${i.email}`} busy={revoke.isPending && revoke.variables?.id === i.id} onClick={() => setConfirming(i)}>Revoke</Button> },
          ]}
        />
      )}
      <Confirm
        open={confirming !== null}
        title="Revoke this invitation?"
        confirmLabel="Revoke"
        onClose={() => setConfirming(null)}
        onConfirm={() => {
          const i = confirming;
          setConfirming(null);
          if (i) revoke.mutate(i);
        }}
      >
        <p>{confirming?.email} will no longer be able to join with the link they were sent.</p>
      </Confirm>
    </section>
  );
}
