// MUI components that navigate with the router (typed routes, preloading on intent).
import { Button, Link, ListItemButton } from '@mui/material'
import { createLink } from '@tanstack/react-router'

export const ButtonLink = createLink(Button)
export const ListItemLink = createLink(ListItemButton)
export const TextLink = createLink(Link)
