# The site's words in English. Keys are shared with locales/fr/main.ftl.

## Header and footer
nav-alerts = Alerts
nav-game-master = Game master
nav-users = Users
nav-log-out = Log out
nav-log-in = Log in
nav-register = Register
nav-rules = Rules
footer-language = Language:

## Worlds
worlds-title = Worlds
preview-label = The map of { $world }, as it stands now
preview-caption = { $world } as it stands now: towns, mines, rivers and castles, each nation's ground outlined in its colour. Open it to look around; log in to play.
worlds-intro = Command companies of Napoleonic soldiers on a shared map. Turns come every few hours; log in once or twice a day to give your orders.
worlds-since = Since your last visit
yours-title = Your worlds
yours-all = Every world
yours-over = the campaign is over
yours-next-turn = next turn
yours-unread = { $n ->
    [one] 1 unread message
   *[other] { $n } unread messages
}
yours-raise = No company yet: raise one
worlds-none = No world yet.
worlds-turn = turn { $turn }
worlds-paused = paused
welcome = Welcome, { $name }: your account is ready. Open a world below and join a nation to raise your first company.

## Seasons
season-summer = summer
season-winter = winter

## The world page
world-turn = Turn { $turn }
world-paused = paused
world-next-turn = next turn
# The countdown to the next turn, as the page's script fills it in.
countdown-hours = in { $h } h { $m } min { $s } s
countdown-minutes = in { $m } min { $s } s
# The time is up and the turn not yet told: the server is playing it ("next turn under way").
countdown-due = under way
# The world page's line that says whether it follows the world as it moves (the live stream).
live-connecting = connecting…
live-on = live
live-retry = reconnecting…
live-off = offline
world-nations = Nations
world-reports = Reports
world-report = Report
pan-north = ▲ North
pan-south = ▼ South
pan-west = ◀ West
pan-east = East ▶
zoom = zoom
choose-cell = Choose a cell on the map
log-in-to-play = <a href="/login?next={ $back }">Log in</a> or <a href="/register?next={ $back }">register</a> to play.
join-title = Join this world
join-nation = Nation
join-button = Join
joined = You serve { $nation }. Raise your first company below: it appears where your nation's companies start out.
treasury-reserve = Treasury of { $nation }: { $treasury } · your reserve: { $reserve } men
reserve-note = (men waiting to reinforce your companies; { $gain } more each turn)
fog-note = Shaded cells are out of sight of your nation's companies: enemies there are not shown.
company-line = { $men } men · { $ap } AP
orders = orders
raise-label = Raise a company: { $cost } from the treasury, at full strength (not from your reserve)
raise-placeholder = name
raise-button = Raise
raise-refused = No company can be raised now:
on-leave = On leave until { $until }: your companies neither take orders nor can be attacked, and turns pass them by, until then.
leave-title = Go on leave
leave-for = for
leave-days = days
leave-button = Go on leave
leave-note = Your companies are frozen: they take no orders and cannot be attacked. The leave cannot be cut short, and cannot start within { $hours } hours of a fight.
gm-title = Game master
gm-run-turn = Run a turn now
gm-change-season = Change the season now
gm-pause = Pause
gm-resume = Resume
gm-editor = Map editor and world tools
close-panel = Close the cell's panel
move-cost = Move cost this season: <strong>{ $ap } AP</strong>
stops-movement = stops movement
blocks-los = blocks line of sight
protection = Shelter here: volleys do { $volley } % less harm, charges { $melee } % less.
protection-volley = Shelter here: volleys do { $volley } % less harm.
protection-melee = Shelter here: charges do { $melee } % less harm.
owner = Owner: { $owner }
town = Town: { $town }
structure = Structure: { $structure } / { $max }
breached = breached
stands-here = { $name } stands here
cells-away = { $n ->
    [one] 1 cell away
   *[other] { $n } cells away
}
hidden = hidden
move-here = Move here ({ $ap } AP)
climb-here = Climb the wall ({ $ap } AP)
climb-note = A climb ends the move, and defenders on castle ground strike first when charged.
wall-way-gate = A closed gate: sappers ram it and guns bombard it; once it is broken anyone walks through.
wall-way-fortified = A fortified wall is never climbed: guns bombard it until it is breached.
wall-way-ladders = Foot companies climb this wall by ladder from a cell next to it outside the castle, or from a finished siege tower; guns can breach it.
wall-way-hooks = Only voltigeurs climb this tower, with hooks, from a cell next to it outside the castle; guns can breach it.
cannot-move = Cannot move here: { $why }
volley = Volley
melee = Charge
bombard = Bombard
repair = Repair
build-bridge = Build a bridge
ram = Ram the gate ({ $ap } AP)
build-siege-tower = Build a siege tower here ({ $ap } AP)
select-company = Select one of your companies to see what it can do here.
path-label = Path: the cells x,y one after another
path-button = Move along the path
path-clear = Clear
path-help = Picking a cell on the map shows what your company can do there;
path-mode = tick “build a path” to add the cells you pick to this path instead:
path-mode-box = build a path
path-by-hand = Plan a path cell by cell

## The legend
legend-summary = Legend: the map's marks and its terrains
legend-company = a company in its nation's colour, with its kind's letter (I infantry, V voltigeurs, C cavalry, A artillery, S sappers); yours carry two bars, men (green) and AP (blue); your nation's other companies have a plain white ring, enemies a dashed black one.
legend-fog = shaded: out of sight of your nation's companies; enemies there are not shown.
legend-owner = an outline in a nation's colour: the cell is that nation's (a town, mine, farm or fort).
legend-structure = a yellow bar under a fort, fortifications or a castle's wall, tower or gate: how much battering it can still take; at zero it is breached (a white crack across it) and anyone may enter, war machines excepted.
legend-breach = a white crack: a breached wall or tower, or a broken gate: everyone but war machines enters (anyone through a broken gate).
legend-siege = a siege tower: pale while it is built; from it, foot companies step onto the enemy wall next to it.
legend-rampart = a thick brown line on a cell's side: a rampart; defenders hit through it lose no morale, and half the men in a charge.
cell-ramparts = { $n ->
    [one] A rampart on its { $sides } side: defenders hit through it lose no morale, and half the men in a charge.
   *[other] Ramparts on its { $sides } sides: defenders hit through them lose no morale, and half the men in a charge.
}
side-N = N
side-NE = NE
side-E = E
side-SE = SE
side-S = S
side-SW = SW
side-W = W
side-NW = NW
legend-selected = red: the selected cell.
legend-path = orange: a path being built, or the path a move would take.
legend-rules = What each terrain does, with every number: the rules
legend-terrain = terrain
legend-ap = AP
legend-volley = shelter from volleys
legend-melee = shelter from charges

## The rules page
rules-title = Rules
rules-contents = Contents
rules-description = The rules of Grognard with the numbers of the ruleset in use: terrains, companies, movement, combat, turns and the campaign.

## Terrains
terrain-plain = plain
terrain-marsh = marsh
terrain-forest = forest
terrain-river = river
terrain-mountain = mountain
terrain-plateau = plateau
terrain-slope = slope
terrain-village = village
terrain-town = town
terrain-church = church
terrain-farm = farm
terrain-mine = mine
terrain-mill = mill
terrain-fields = fields
terrain-animals = animals
terrain-road = road
terrain-bridge = bridge
terrain-fort = fort
terrain-fortifications = fortifications
terrain-wall = wall
terrain-fortified_wall = fortified wall
terrain-tower = tower
terrain-gate = gate
terrain-courtyard = courtyard
terrain-building = building

## Kinds of company
kind-infantry = infantry
kind-voltigeurs = voltigeurs
kind-cavalry = cavalry
kind-artillery = artillery
kind-sappers = sappers

## Alert mails
mail-subject = { $n ->
    [one] Grognard: 1 thing happened while you were away
   *[other] Grognard: { $n } things happened while you were away
}
mail-greeting = { $name },

    while you were away:
mail-worlds = Your worlds: { $url }
mail-stop = No more mail: { $url }

## A refused order's page (the refusals themselves are in src/rules/refusal.rs)
refused-title = Order refused
refused-lead = Order refused:
refused-nothing = Nothing was changed.
refused-back = Back

## Log in, register, a company's page
login-title = Log in
username = Username
password = Password
login-button = Log in
login-no-account = No account yet? <a href="/register">Register</a>.
register-title = Register
username-rule = (3–24 letters, digits, _ or -)
password-rule = (at least 10 characters)
register-button = Register
register-have-account = Already registered? <a href="/login">Log in</a>.
fig-position = position
fig-men = men
fig-wounded = wounded
fig-action-points = action points
fig-morale = morale
fig-experience = experience
fig-perception = sight (cells)
fig-reserve = reserve
fig-full = full strength { $n }
fig-ap-max = max { $max }, +{ $per } per turn
fig-reserve-men = { $n } men
enemies-title = Enemies in sight
enemy-at = at ({ $x }, { $y })
none = None.
move-title = Move
move-to = To
move-cheapest = Show the cheapest path
move-path = Path
move-button = Move
fight-title = Fight
no-volley-kind = { $kind } cannot fire volleys.
no-volley-target = No enemy in sight within range ({ $reach } cells) to fire at.
volley-at = Volley at
melee-at = Charge
away = away
fire = Volley ({ $ap } AP)
range = range { $n }
no-melee-kind = { $kind } cannot charge.
no-melee-target = No enemy next to the company to charge.
charge = Charge ({ $ap } AP)
expected-losses = on average they lose { $inflicted }, you { $suffered }
bombard-ap = Bombard ({ $ap } AP)
other-orders = Other orders
heal = Heal
heal-ap = Heal ({ $ap } AP)
no-room = At full strength: no room for reinforcements.
reserve-empty-note = Your reserve is empty: it grows by { $gain } men each turn, and reinforces a company standing on a town, village or farm of your nation.
reinforce-with = Reinforce with
reinforce-ap = Reinforce ({ $ap } AP)
reinforce-note = from your reserve of { $n }, { $cost } resource(s) a man, on a town, village or farm of your nation
bridge-at = Bridge the river at
build-ap = Build ({ $ap } AP)
repair-at = Repair at
repair-ap = Repair ({ $ap } AP)

## Reports, nations, alerts
reports-title = Reports
reports-none = Nothing to report yet.
reports-older = Older reports
nations-title = Nations
col-nation = nation
col-towns = towns
col-mines = mines
col-forts = forts
col-treasury = treasury
col-players = players
col-companies = companies
nations-yours = { $nation }: your nation
nations-members = Members: { $list }
nations-fog-note = Another nation's companies and treasury are told once the campaign is over: they are its strength.
regiments-title = Regiments
regiment-hq = headquarters ({ $x }, { $y })
regiment-yours = (yours)
regiment-hq-on = HQ on the farm at
regiment-set = Set
regiment-found = Found a regiment
regiment-found-button = Found
alerts-intro = What happened to you while you were away: your companies attacked, ground of your nation taken, turns about to begin. <a href="/account#mail">Get them by mail</a>.
alerts-none = Nothing yet.
mails-title = Alert mails
mails-stopped = You will get no more alert mails. Your alerts still wait for you on the site; you can ask for mails again on your account page.
mails-link-unused = This link is no longer in use: its mails were stopped already, or asked for again since.

## A report
report-turn = turn { $turn }
report-steps = Steps:
report-road = road
report-total = total { $ap } AP
report-attacker = { $name } (attacker)
report-defender = { $name } (defender)
report-kind-terrain = kind, terrain
report-men-before = men before
report-damage-rolled-against = damage rolled against
report-raw-losses = raw losses
report-protection = protection
report-losses = losses
report-men-after = men after
report-morale = morale
report-experience = experience
report-split = { $killed } killed, { $wounded } wounded
report-destroyed = destroyed
report-structure = Structure { $before } → { $after } of { $max }
report-dice = Dice:
report-details = How it was fought

## The account page
account-title = Your account
account-role = Role: { $role }
tokens-title = API tokens
tokens-intro = Tokens let your own tools use the <a href="/api/v1/openapi.json">JSON API</a> with <code>Authorization: Bearer &lt;token&gt;</code>.
token-new = New token (copy it now, it will not be shown again):
col-name = name
col-created = created
col-last-used = last used
never = never
revoke = Revoke
tokens-none = No token yet.
token-name = Name
token-placeholder = my scripts
token-create = Create a token
push-title = Notifications on this device
push-intro = Your alerts (an attack, ground lost, the turn coming, a message) appear on this device even when the site is closed. Turn them on on each device you want them on.
push-switch = Notify me on this device
push-noscript = Notifications need JavaScript.
push-state-off = Off on this device.
push-state-on = On: your alerts reach this device.
push-state-working = One moment…
push-state-unsupported = This browser cannot show notifications from a site.
push-state-denied = Notifications are blocked for this site in the browser's settings.
push-state-failed = Notifications could not be turned on: this browser has no push service here.
push-reminders-title = Reminders and quiet hours
push-reminders-intro = Besides your alerts, you may be reminded of these, on the site and on your devices that show notifications:
push-reminder-full-ap = a company of mine is at full action points after a turn
push-reminder-turn-unspent = the turn is { $minutes } minutes away and a company of mine would lose action points to it
push-reminder-section-lost = my nation lost a castle section
push-reminder-board = someone wrote on my nation's board
push-quiet-from = Quiet hours: from
push-quiet-to = until
push-quiet-note = No notification comes in between; what happened waits until they end. Times are in this browser's time zone (without JavaScript, the one saved last, UTC at first); leave both empty for none.
push-daily-cap-label = Notifications a day at most (the last one says the rest waits on the site)
mail-title = Alerts by mail
saved = Saved.
mail-address = E-mail address
mail-opt-in = Mail me my alerts (your companies attacked, ground of your nation taken, a turn about to begin), at most once every { $minutes } minutes
save = Save
mail-stop-note = Every mail has a link that stops them in one click.
password-title = Password
password-current = Current password
password-new = New password (at least 10 characters)
password-change = Change the password
password-note = Every other session of your account ends; your API tokens keep working.
password-changed = Your password has changed; every other session of your account has ended.

## What happened, as reports, alerts and mails say it
said-and = {"; "}
said-raise = { $player } raised { $name } ({ $kind }) at ({ $x }, { $y }) for { $cost }
said-move = { $name } moved to ({ $x }, { $y }) for { $ap } AP
said-captured-mine = captured the mine at ({ $x }, { $y })
said-captured-fort = captured the breached fort at ({ $x }, { $y })
said-captured-castle = took the castle cell at ({ $x }, { $y })
said-took-town = took the town of { $town }
said-volley = { $name } fired a volley at { $target } at ({ $x }, { $y }): { $target } lost { $losses } ({ $killed } killed, { $wounded } wounded)
said-charge = { $name } charged { $target } at ({ $x }, { $y }): { $target } lost { $losses } ({ $killed } killed, { $wounded } wounded)
said-lost = { $name } lost { $losses }
said-destroyed = { $name } was destroyed
said-bombard = { $name } bombarded the { $terrain ->
    [fortified_wall] fortified wall
   *[other] { $terrain }
} at ({ $x }, { $y }): { $before } → { $after }
said-bombard-breached = { $name } bombarded the { $terrain ->
    [fortified_wall] fortified wall
   *[other] { $terrain }
} at ({ $x }, { $y }): { $before } → { $after }, breached
said-bombard-siege-tower = { $name } bombarded the siege tower at ({ $x }, { $y }): { $before } → { $after }
said-bombard-siege-tower-gone = { $name } bombarded the siege tower at ({ $x }, { $y }): { $before } → { $after }, it falls
said-ram = { $name } rammed the gate at ({ $x }, { $y }): { $before } → { $after }
said-ram-broken = { $name } rammed the gate at ({ $x }, { $y }): { $before } → { $after }, it gives way
said-siege-tower-build = { $name } builds a siege tower at ({ $x }, { $y }): { $builds } of { $needed }
said-siege-tower-built = { $name } finished a siege tower at ({ $x }, { $y })
said-repair = { $name } repaired the { $terrain ->
    [fortified_wall] fortified wall
   *[other] { $terrain }
} at ({ $x }, { $y }): { $before } → { $after }
said-bridge = { $name } bridged the river at ({ $x }, { $y })
said-heal = { $name } healed { $healed } wounded
said-reinforce = { $name } took { $men } men from the reserve for { $cost }{ $limited ->
    [room] {" "}({ $asked } asked: the company is at full strength)
    [reserve] {" "}({ $asked } asked: the reserve is empty)
    [treasury] {" "}({ $asked } asked: the treasury is spent)
   *[none] {""}
}
said-turn = Turn { $turn } begins
said-season = The season turns to { $season }
said-leave = { $player } goes on leave for { $days } days
said-turn-soon = { $world }: turn { $turn } begins in { $minutes } min
said-webhook-off = Your webhook to { $url } failed { $failures } times in a row and was turned off; add it again once it works
push-daily-cap = More alerts today wait on the site: your daily number of notifications is reached.

## Game master and admin pages
gm-worlds = Worlds
col-world = world
col-size = size
col-turn = turn
col-season = season
gm-paused = (paused)
gm-edit = edit
gm-play-view = play view
gm-audit = audit
gm-download = download
gm-empty-title = An empty world
gm-name = Name
gm-width = Width
gm-height = Height
gm-nations-colours = Nations (name and colour, comma separated)
gm-create = Create
gm-generated-title = A generated world
gm-seed = Seed
gm-nations-count = Nations
gm-generate = Generate
gm-upload-title = Upload a map
gm-kind = Kind
gm-kind-grognard = Grognard map file (JSON)
gm-kind-tiled = Tiled map (tilesets embedded)
gm-tiled-format = Tiled format
gm-name-tiled = Name (Tiled maps)
gm-file = File
gm-contents = Contents
gm-paste = paste the file here
gm-import = Import
audit-title = Audit
audit-log = Audit log
audit-gm = Game master
audit-cell = Cell
audit-filter = Filter
audit-all = all
col-when = when
col-who = who
col-what = what
col-target = target
col-before = before
col-after = after
audit-none = No change recorded.
audit-older = Older
col-username = username
col-role = role
col-banned = banned
col-change = change
role-player = player
role-gm = game master
role-admin = admin
yes = yes
no = no
not-banned = not banned
banned = banned
editor-title = Editor
editor-heading = map editor
editor-download = download the map
editor-saving = saving cells:
editor-saving-rampart = saving the rampart on side
editor-saved = cells saved:
editor-refused = refused:
editor-silent = the server did not answer
editor-terrains = terrains
editor-tool = Tool
editor-paint = paint
editor-rect = rectangle fill
editor-inspect = inspect
editor-brush = Brush
editor-also-set = also set
editor-town = town
editor-name-or-none = name or -
editor-owner = owner
editor-nobody = nobody
editor-structure = structure
editor-n-or-none = n or -
editor-undo = Undo
editor-world = World
editor-set-season = Set the season
editor-cell-title = Edit a cell
editor-terrain = Terrain
editor-unchanged = (unchanged)
editor-town-help = Town (a new name founds it; - for none)
editor-owner-label = Owner
editor-structure-help = Structure (- for none)
editor-castle-help = Castle (a new name founds one, - for none)
error-cell-castle-name = cell ({ $x }, { $y }): a castle name has 1 to { $max } characters
editor-save-cell = Save the cell
editor-undo-last = Undo my last change
editor-spawns = Spawn cells
editor-set = Set
editor-companies = Companies in view
editor-at = at
editor-men = men
editor-wounded = wounded
editor-ap = AP
editor-morale = morale
editor-remove = Remove

## Errors
error-rate-limited = too many attempts; try again in { $s } seconds
error-busy = the server is busy; try again in { $s } seconds
error-campaign-over = the campaign is over: the world can be read, not played
error-paused = the world is paused
error-log-in = please log in
error-form-expired = this form has expired or did not come from this site; reload the page and try again
error-session-ended = your session has ended; log in again
error-username-length = a username has { $min } to { $max } characters
error-username-letters = a username may hold only letters, digits, _ and -
error-username-taken = the username `{ $name }` is taken
error-password-short = a password needs at least { $n } characters
error-password-long = a password may have at most { $n } characters
error-current-password = the current password is not right
error-banned = this account is banned
error-wrong-password = wrong username or password
error-no-such = no such { $what }
what-world = world
what-bot = bot
what-company = company
what-company-of-yours = company of yours
what-regiment-of-your-nation = regiment of your nation
what-token = token
what-user = user
error-no-page = there is no page at this address
error-join-first = join this world with a nation first
error-turn-running = a turn is being applied to this world; try again in a moment
error-joined = you have already joined this world
error-no-nation = no nation `{ $nation }` in this world
error-bot-level = unknown bot level `{ $level }` (easy, normal or hard)
error-bot-name = no free name for another bot of this nation
error-control = a { $what } cannot hold control characters
error-name-length = a { $what } has 1 to { $max } characters
what-company-name = company name
what-regiment-name = regiment name
what-token-name = token name
error-company-name-taken = you already command a company called `{ $name }`: give this one another name
error-regiment-name-taken = there is already a regiment called `{ $name }`
error-hq-members = only members of a regiment may place its headquarters
error-token-name = a token name has at most { $max } characters
error-not-address = `{ $address }` is not an e-mail address
error-no-address = give the address the alerts should go to
error-leave-days = give the number of days of leave
error-query = bad query string: { $detail }
error-form = this form could not be read: { $detail }
error-path-length = a path has at most { $max } steps
error-path = a path is a list of cells: [[x, y], …] or x,y x,y …
error-to-or-path-not-both = send a destination (`to`) or a path (`path`), not both
error-to-or-path = send a destination (`to`) or a path (`path`)
error-give = give { $what } (`{ $field }`)
error-not-cell = { $what } is a cell: [x, y] or x,y
error-not-whole = { $what } is a whole number
error-no-action = no action `{ $action }`
what-each-step = each step
what-destination = the destination
what-company-to-attack = the company to attack
what-target = the target
what-cell = the cell
what-farm = the farm
what-how-many-men = how many men
what-number-of-men = the number of men
error-page-title = Error { $code }
error-page-back = Back to the worlds
error-cell-terrain = cell ({ $x }, { $y }): unknown terrain `{ $terrain }`
error-cell-bridge = cell ({ $x }, { $y }): a { $terrain } can only replace a river
error-cell-nation = cell ({ $x }, { $y }): unknown nation `{ $nation }`
error-cell-owner = cell ({ $x }, { $y }): { $terrain } cannot have an owner
error-cell-structure-range = cell ({ $x }, { $y }): structure { $structure } is outside 0..={ $max } for { $terrain }
error-cell-no-structure = cell ({ $x }, { $y }): { $terrain } has no structure
error-cell-needs-structure = cell ({ $x }, { $y }): { $terrain } needs a structure
error-cell-town-name = cell ({ $x }, { $y }): a town name has 1 to { $max } characters
error-cell-company = cell ({ $x }, { $y }): the company standing there could not stay: { $why }
error-cell-twice = cell ({ $x }, { $y }) is listed twice
error-no-cell = no cell to change
error-too-many-cells = at most { $max } cells per request
error-nothing-to-undo = there is no change of yours left to undo
error-range = { $what } must be between { $lo } and { $hi } (got { $v })
error-yes-no = { $what } must be yes or no, not `{ $value }`
error-give-number = give { $what } as a number
error-not-number = { $what } `{ $value }` is not a number
error-not-xy = `{ $value }` is not a cell x,y
error-spawn = give the spawn cell as x,y
error-how = unknown way to make a world: `{ $how }`
error-season = unknown season `{ $season }` (summer or winter)
error-role = unknown role `{ $role }` (player, gm or admin)
error-self-admin = you cannot ban yourself or give up your own admin role
what-width = the width
what-points = the points to win
what-end-turn = the last turn
what-towns-share = the share of towns (0 to 1)
what-height = the height
what-seed = the seed
what-nation-count = the number of nations
what-x = x
what-y = y
selected-ap = { $name }: { $ap } AP
col-kind = kind
map-label = map
unit-on-leave = on leave
unit-men = men


cell-steadier = Men here keep their nerve better (confidence +{ $n }): more of the fallen are only wounded.
cell-shakier = Men here lose their nerve more easily (confidence { $n }): more of the fallen are killed.
cell-sees-farther = A company here sees { $n } { $n ->
    [one] cell
   *[other] cells
} farther.
cell-sees-less = A company here sees { $n } { $n ->
    [one] cell
   *[other] cells
} less far.
first-day-title = Your first day
first-day-join = Join a nation
first-day-raise = Raise a company
first-day-move = Move it: pick a cell on the map, then “Move here”
first-day-fog = Look into the fog: pick a shaded cell
first-day-volley = Fight: a volley at an enemy in range, or a charge at one next to you
first-day-report = Read a report (Reports, at the top)
first-day-done = done
map-scroll-cue = Drag the map to see more of it

## Nations of the shipped maps, as each language names them (other names stay as written).
name-france = France
name-russia = Russia
name-prussia = Prussia
name-austria = Austria
name-england = England
name-spain = Spain
meta-description = Grognard: a persistent strategy game of Napoleonic companies on a shared map. Log in once or twice a day, give your orders, fight for mines, towns and forts.
said-campaign-won = { $world }: the campaign is over after turn { $turn } ({ $why }): { $nation } wins with { $points } points
said-campaign-draw = { $world }: the campaign is over after turn { $turn } ({ $why }): a draw
campaign-why-points = a nation reached the points to win
campaign-why-towns = a nation holds the towns
campaign-why-last_turn = its last turn
campaign-why-game_master = ended by a game master

## The standings page, the rankings and the hall of fame
world-standings = Standings
standings-title = Standings
standings-to-win = To win: { $points } points, or { $share } % of the towns with no enemy company in them.
standings-last-turn = Otherwise the nation with most points after turn { $turn } wins.
standings-won = { $nation } won the campaign after turn { $turn }
standings-draw = The campaign ended in a draw after turn { $turn }
standings-next = The next campaign on this map:
world-over = The campaign is over: this world can be read, no longer played.
world-over-see = See the result
col-points = points
col-sections = castle sections
chart-points = Victory points
chart-towns = Towns held
chart-mines = Mines held
chart-turn = turn
chart-empty = No turn has been played yet.
rankings-title = Players
rankings-note = As the last turn left them. Another nation's players are listed without their nation.
rank-by-inflicted = Enemies put out of action
rank-by-lost = Men lost
rank-by-captures = Captures
rank-by-xp = Experience
rank-by-turns = Turns played
rank-by-points = Nation's points
col-player = player
col-inflicted = put out of action
col-lost = lost
col-captures = captures
col-xp = XP
col-turns = turns played
rankings-you = you
rankings-none = No player ranked yet: players are ranked from the turn after they join.
rankings-your-place = Your place: { $rank } of { $players }.
rankings-page = page { $page } of { $pages }
rankings-prev = ← previous
rankings-next = next →
hall-title = Hall of fame
hall-won = { $nation } won after turn { $turn } with { $points } points
hall-draw = a draw after turn { $turn }
worlds-over = campaign over
gm-campaign = Campaign
gm-end-campaign = End the campaign now
gm-next-campaign = Start the next campaign on this map
gm-next-name = Name (optional)
gm-victory = Victory: points, last turn (0: none), share of towns
gm-set = Set
castles-title = Castles
castles-note = Each section is held by the one nation with companies in it, as the last turn found it; each earns its nation points every turn. You are told a section's holder when your nation holds it or saw its companies there at the turn.
col-section = section
col-held-by = held by
section-owned-unmanned = { $nation }’s ground, no holder seen
section-held-by = held by { $nation }
section-no-holder = no holder seen
cell-section = Castle { $castle }: { $section }
section-tower = tower
section-gate = gate
section-wall = wall
section-courtyard = courtyard
# A courtyard's quarter, by the compass.
quarter-NW = NW
quarter-NE = NE
quarter-SW = SW
quarter-SE = SE

## Talking: messages, the nation's board, markers, moderation
nav-messages = Messages
world-messages = Messages
messages-title = Messages
messages-board = the nation's board
messages-board-of-nation = Your nation's board
messages-announcements = From the game masters
messages-announce = An announcement to every player of this world
messages-send = Send
messages-conversations = Conversations
messages-no-conversations = No conversation yet.
messages-write-to = Write to a player:
messages-no-such-player = No player called “{ $name }” plays in this world.
messages-did-you-mean = Did you mean
messages-pick-a-name = Pick a name from the list of the “Write to a player” field.
messages-open = Open
messages-blocked-list = Blocked: { $list }
messages-with = With { $player }
messages-block = Block { $player }
messages-unblock = Unblock { $player }
messages-write-player = Your message to { $player }
messages-write-board = Your message to your nation (only its players read the board)
messages-none = Nothing written here yet.
messages-report = Report
messages-report-reason = Why?
messages-report-send = Report to the game masters
messages-reply = Reply in private
messages-older = Older messages
said-full-ap = { $count ->
    [one] { $names } is
   *[other] { $count } companies ({ $names }) are
} at full action points
said-turn-unspent = The turn begins in { $minutes } min and { $count ->
    [one] { $names } would lose
   *[other] { $count } companies ({ $names }) would lose
} action points to it
said-section-lost = Your nation lost a section of { $castle }: { $section }
said-board = { $player } wrote on your nation's board
said-message-from = { $player } sent you a message
said-announcement = { $player } (game master) spoke to the whole world
what-player = player
what-message = message
what-marker = marker
what-report = report
error-message-length = a message has between 1 and { $max } characters
error-marker-length = a marker's label is one line of 1 to { $max } characters
error-control-characters = the text holds control characters
error-message-to-self = you cannot write to yourself
error-blocked = { $player } does not take your messages
error-muted = a game master muted you: you may write again in { $minutes } minutes
error-block-self = you cannot block yourself
error-off-the-map = ({ $x }, { $y }) is off the map
error-too-many-markers = you have { $max } markers standing: remove one first
error-marker-not-yours = only its author or a game master removes a marker
error-report-own = you cannot report your own message
error-mute-hours = a mute lasts 0 to { $max } hours
markers-here = Markers here
marker-by = by { $player }, until turn { $turn }
marker-drop = Mark this cell for your nation
marker-label = Label
marker-drop-button = Drop a marker
marker-remove = Remove
legend-marker = a marker of your nation (its label in the cell's panel); only your nation sees it
moderation-title = Moderation
moderation-intro = Messages players reported. Removing a message hides it from everyone; muting stops a player writing for a time. Each is in the audit log.
moderation-none = No open report.
moderation-reported-by = reported by { $player }: { $reason }
moderation-remove = Remove the message
moderation-mute = Mute { $player } for
moderation-hours = hours
moderation-mute-button = Mute
moderation-dismiss = Dismiss the report
moderation-muted-until = muted until { $until }
error-moderation-form = choose remove, dismiss or mute, with the message, the report or the player and hours
error-username-reserved = “{ $name }” is kept for the game; choose another name
battle-note-first_strike = The defenders on the wall struck first: the attackers fought with the men left.
battle-note-close_quarters = Close quarters (a wall, tower, gate or building): half damage both ways.
battle-note-siege_tower = The attackers came from a siege tower: no first strike.
battle-note-rampart = A rampart on the side the blow came through: the defenders lost no morale (and in melee half the men).
battle-note-obscured = The volley passed cover on its way: the target was obscured (more volley protection).
editor-rampart-side = Rampart on side
editor-rampart-set = Set
editor-rampart-remove = Remove
edge-rampart = rampart
gm-grid = Cells
grid-square = squares
grid-hex = hexagons
editor-rampart-tool = ramparts: click a side
channel-private = a private message
channel-nation = the nation's board
channel-world = the whole world

## Bots
bot-mark = (computer)
bot-title = played by the server
world-bots = { $nations } { $count ->
    [one] is
   *[other] are
} played by the computer.
away-title = While you are away
away-opt-in = When I give no order for { $turns } turns, my nation's bot holds my companies
away-note = It only defends, heals and keeps them out of traps; it never heads anywhere nor spends the treasury. Your first order takes them back. A nation without a bot holds nothing.
editor-bots = Bots
editor-no-bots = No nation is played by the computer.
editor-bot-nation = Nation of the new bot
editor-bot-level = Level of the new bot
editor-bot-add = Seat a bot
editor-bot-remove = Stop
bot-level-easy = easy
bot-level-normal = normal
bot-level-hard = hard
