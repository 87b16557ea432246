// What a confirm that rotates every shape of a source (clear cache, delete) adds to its own text:
// how many shapes that rotates and how many clients then refetch, from the synced live shapes.
import { Typography } from '@mui/material'
import { useRotationLoad } from '../../../db/tab/figure-hooks.ts'
import { rotationImpact } from './figure-format.ts'

export function RotationImpact({ sourceId }: { sourceId: string }) {
  const load = useRotationLoad(sourceId)
  if (!load) return null
  return <Typography>{rotationImpact(load.shapes, load.clients)}</Typography>
}
