// A failed OAuth connection comes back with provider_error=<message>: shown once in
// an Alert, and dropped from the address so a reload or a shared link does not show it again.
import { Alert } from '@mui/material'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'

export function ProviderErrorAlert() {
  const location = useLocation()
  const navigate = useNavigate()
  const fromUrl = new URLSearchParams(location.searchStr).get('provider_error')
  const [message, setMessage] = useState<string | null>(fromUrl)
  if (fromUrl && fromUrl !== message) setMessage(fromUrl)

  useEffect(() => {
    if (!fromUrl) return
    const params = new URLSearchParams(location.searchStr)
    params.delete('provider_error')
    const search = params.toString()
    void navigate({
      href: `${location.pathname}${search ? `?${search}` : ''}`,
      replace: true,
    })
  }, [fromUrl, location.pathname, location.searchStr, navigate])

  if (!message) return null
  return (
    <Alert severity="error" role="alert" onClose={() => setMessage(null)}>
      {message}
    </Alert>
  )
}
