// The two hosted-provider starts offered beside the connection string.
import {
  Avatar,
  Box,
  Card,
  CardActionArea,
  CardContent,
  Typography,
} from '@mui/material'
import { createLink } from '@tanstack/react-router'

const TileLink = createLink(CardActionArea)

const PROVIDERS = [
  {
    to: '/sources/new/supabase',
    name: 'Supabase',
    mark: 'S',
    color: '#3ecf8e',
  },
  { to: '/sources/new/neon', name: 'Neon', mark: 'N', color: '#00e599' },
] as const

export function ProviderTiles() {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
      }}
    >
      {PROVIDERS.map((provider) => (
        <Card key={provider.to} variant="outlined">
          <TileLink
            to={provider.to}
            aria-label={`Connect with ${provider.name}`}
          >
            <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              <Avatar
                aria-hidden
                sx={{
                  bgcolor: provider.color,
                  color: '#0b1120',
                  fontWeight: 700,
                }}
              >
                {provider.mark}
              </Avatar>
              <Typography variant="h6" component="span">
                {provider.name}
              </Typography>
            </CardContent>
          </TileLink>
        </Card>
      ))}
    </Box>
  )
}
