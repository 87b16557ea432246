// Business constants of the product (limits, timings, defaults) and the links the dashboard
// shows, named once.

export const MOBILE_BREAKPOINT_PX = 768
/**
 * The source page's Live shapes need this much window for their seven columns beside the
 * sidebar; below it each shape is a block of its own.
 */
export const LIVE_SHAPES_TABLE_BREAKPOINT_PX = 1200
export const PUBLIC_PAGE_MAX_WIDTH_PX = 480
export const COPY_TOOLTIP_RESET_MS = 1000

// The shape explorer: a shape above this many rows is not created, but warned about.
export const SHAPE_ROW_LIMIT = 1000
export const SCHEMA_REFETCH_MS = 60_000
export const SHAPE_GRID_PAGE_SIZE = 10
export const SHAPE_GRID_COLUMN_MIN_WIDTH_PX = 60
export const SHAPE_GRID_COLUMN_WIDTH_PX = 150
export const SHAPE_GRID_MAX_HEIGHT = '65vh'

// The longest values the API accepts (the forms show no maximum length). Generous for
// any real value; they keep a request from making the server store or index megabytes.
export const NAME_MAX_LENGTH = 200
/** RFC 5321's limit on a whole address. */
export const EMAIL_MAX_LENGTH = 320
/** Postgres URLs name a host (at most 253), a user and a database (63 bytes each). */
export const DATABASE_URL_MAX_LENGTH = 2048
export const INSTANCE_MAX_LENGTH = 100
/** A source's project and environment: short labels like `my-app`, `production`, `pr-123`. */
export const SOURCE_TAG_MAX_LENGTH = 64

export const DOCS_LINKS = [
  { label: 'Introduction', href: 'https://electric-sql.com/docs/intro' },
  { label: 'OSS Quickstart', href: 'https://electric-sql.com/docs/quickstart' },
  {
    label: 'Cloud Quickstart',
    href: 'https://electric-sql.com/docs/guides/deployment',
  },
  {
    label: 'TypeScript Client',
    href: 'https://electric-sql.com/docs/api/clients/typescript',
  },
] as const

/** Where the validation page's 'Database URL' help link points: what the database needs. */
export const DATABASE_URL_HELP_LINK =
  'https://electric-sql.com/docs/guides/deployment'

export const SCHEDULING_LINKS = {
  feedbackChat: 'https://cal.com/sluice/feedback-chat',
  workingSession: 'https://cal.com/sluice/working-session',
} as const

export const SUPPORT_EMAIL = 'support@sluice.dev'

// Provider lists on the wizard pages: refetched this often and on window focus, and
// a failed read is tried again this many times before its error shows.
export const PROVIDER_REFETCH_MS = 10_000
export const PROVIDER_RETRIES = 3
/** First provider (Supabase): the database's direct port, the default user and database name. */
export const SUPABASE_DB_PORT = 5432
export const SUPABASE_DEFAULT_USER = 'postgres'
export const SUPABASE_DEFAULT_DATABASE = 'postgres'

// Setup links: how long a new one stays usable, by default and at most, and how
// many usable ones a team may hold at once (each is a standing invitation to add a source).
export const SETUP_FORM_DEFAULT_EXPIRY_DAYS = 7
export const SETUP_FORM_MAX_EXPIRY_DAYS = 30
export const SETUP_FORM_MAX_LIVE_PER_TEAM = 100
