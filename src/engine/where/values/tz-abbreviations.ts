// The time zone abbreviations of Postgres's default set (share/timezonesets/Default, what
// `timezone_abbreviations = 'Default'` loads), which timezone() and AT TIME ZONE look up before
// zone names: each fixed one with its offset in seconds east of UTC. The dynamic ones (whose
// offset follows a zone's history) are listed apart: the evaluator refuses them.

const FIXED = `
eat=10800 sast=7200 wat=3600 act=-18000 akdt=-28800 akst=-32400 bot=-14400 bra=-10800
brst=-7200 brt=-10800 cot=-18000 cdt=-18000 clst=-10800 cst=-21600 edt=-14400 egst=0
egt=-3600 est=-18000 fnt=-7200 fnst=-3600 gft=-10800 mdt=-21600 mst=-25200 ndt=-9000
nft=-12600 nst=-12600 pet=-18000 pdt=-25200 pmdt=-7200 pmst=-10800 pst=-28800 pyst=-10800
uyst=-7200 uyt=-10800 wgst=-7200 wgt=-10800 ddut=36000 aft=16200 almt=21600 almst=25200
amt=-14400 bdt=21600 bnt=28800 bort=28800 btt=21600 cct=28800 hkt=28800 ict=25200 idt=10800
irt=12600 ist=7200 jayt=32400 jst=32400 kdt=36000 kgst=21600 kst=32400 mmt=23400 myt=28800
npt=20700 pht=28800 pkt=18000 pkst=21600 tjt=18000 ulast=32400 uzst=21600 uzt=18000
xjt=21600 yekst=21600 adt=-10800 ast=-14400 azost=0 azot=-3600 acsst=37800 acdt=37800
acst=34200 acwst=31500 aesst=39600 aedt=39600 aest=36000 awsst=32400 awst=28800 cadt=37800
cast=34200 lhst=37800 ligt=36000 nzt=43200 sadt=37800 wadt=28800 wast=25200 wdt=32400 gmt=0
uct=0 ut=0 utc=0 z=0 zulu=0 bst=3600 bdst=7200 cest=7200 cet=3600 cetdst=7200 eest=10800
eet=7200 eetdst=10800 fet=10800 mest=7200 mesz=7200 met=3600 metdst=7200 mez=3600 msd=14400
wet=0 wetdst=3600 cxt=25200 mut=14400 must=18000 mvt=18000 ret=14400 sct=14400 tft=18000
chadt=49500 chast=45900 chut=36000 fjst=46800 fjt=43200 galt=-21600 gamt=-32400 gilt=43200
hst=-36000 mart=-34200 mht=43200 mpt=36000 nzdt=46800 nzst=43200 pgt=36000 pont=39600
pwt=32400 taht=-36000 tot=46800 trut=36000 tvt=43200 vut=39600 wakt=43200 wft=43200
yapt=36000
`

const DYNAMIC = `
art arst clt gyt pyt vet davt mawt amst anast anat azst azt gest get irkst irkt kgt krast
krat lkt magst magt novst novt omsst omst petst pett sgt tmt ulat vlast vlat yakst yakt yekt
fkst fkt lhdt msk volt iot ckt easst east kost lint nut tkt
`

/** Offsets of the fixed abbreviations, by lower-case name. */
export const FIXED_ABBREVIATIONS: ReadonlyMap<string, number> = new Map(
  FIXED.trim()
    .split(/\s+/)
    .map((pair) => {
      const [name = '', offset = '0'] = pair.split('=')
      return [name, Number(offset)]
    }),
)

export const DYNAMIC_ABBREVIATIONS: ReadonlySet<string> = new Set(
  DYNAMIC.trim().split(/\s+/),
)
