// The dashboard's navigation: sources, teams, tools, docs, feedback, the user.
import LogoutIcon from '@mui/icons-material/Logout'
import OpenInNewIcon from '@mui/icons-material/OpenInNew'
import {
  Box,
  Divider,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
} from '@mui/material'
import { useState, type ReactNode } from 'react'
import { DOCS_LINKS } from '../../../shared/constants.ts'
import { ListItemLink } from '../../components/links.tsx'
import { Logo } from '../../components/logo.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useCurrentUser, useTeams } from '../../db/tab/hooks.ts'
import { useSignOut } from '../auth/use-sign-out.ts'
import { FeedbackDialog } from './feedback-dialog.tsx'

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <List
      dense
      subheader={
        <ListSubheader
          disableSticky
          sx={{ bgcolor: 'transparent', lineHeight: '32px' }}
        >
          {title}
        </ListSubheader>
      }
    >
      {children}
    </List>
  )
}

export function Sidebar() {
  const user = useCurrentUser()
  const teams = useTeams()
  const signOut = useSignOut()
  const [feedbackOpen, setFeedbackOpen] = useState(false)
  const active = { className: 'Mui-selected' }

  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <Box sx={{ px: 2, py: 2 }}>
        <Logo />
      </Box>
      <Divider />
      <Box sx={{ flex: 1, overflowY: 'auto' }}>
        <Section title="Sources">
          <ListItemLink
            to="/sources"
            activeOptions={{ exact: true }}
            activeProps={active}
          >
            <ListItemText primary="All Sources" />
          </ListItemLink>
          <ListItemLink to="/sources/new" activeProps={active}>
            <ListItemText primary="New Source" />
          </ListItemLink>
        </Section>
        <Section title="Teams">
          {(teams ?? []).map((team) => (
            <ListItemLink
              key={team.id}
              to="/teams/$teamId"
              params={{ teamId: team.id }}
              activeProps={active}
            >
              <ListItemText primary={team.name} />
            </ListItemLink>
          ))}
        </Section>
        <Section title="Tools">
          <ListItemLink to="/shape-explorer" activeProps={active}>
            <ListItemText primary="Shape Explorer" />
          </ListItemLink>
        </Section>
        <Section title="Docs">
          {DOCS_LINKS.map((link) => (
            <ListItemButton
              key={link.href}
              component="a"
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
            >
              <ListItemText primary={link.label} />
              <OpenInNewIcon fontSize="inherit" sx={{ opacity: 0.6 }} />
            </ListItemButton>
          ))}
        </Section>
      </Box>
      <Divider />
      <List dense>
        <ListItemButton onClick={() => setFeedbackOpen(true)}>
          <ListItemText primary="👋 Got 30 minutes?" />
        </ListItemButton>
        <ListItemLink
          to="/preferences"
          activeProps={active}
          aria-label="Preferences"
        >
          <ListItemText
            primary={user ? user.name || user.email : ' '}
            secondary="Preferences"
          />
        </ListItemLink>
        <NeedsNetwork>
          <ListItemButton onClick={() => void signOut()}>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <LogoutIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Logout" />
          </ListItemButton>
        </NeedsNetwork>
      </List>
      <FeedbackDialog
        open={feedbackOpen}
        onClose={() => setFeedbackOpen(false)}
      />
    </Box>
  )
}
