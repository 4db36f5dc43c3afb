# Les mots du site en français. Les clés sont celles de locales/en/main.ftl.

## En-tête et pied de page
nav-alerts = Alertes
nav-game-master = Maître du jeu
nav-users = Joueurs
nav-log-out = Se déconnecter
nav-log-in = Se connecter
nav-register = S'inscrire
nav-rules = Règles
footer-language = Langue :

## Les mondes
worlds-title = Mondes
preview-label = La carte de { $world }, telle qu'elle est maintenant
preview-caption = { $world } tel qu'il est maintenant : villes, mines, rivières et châteaux, le terrain de chaque nation cerné de sa couleur. Ouvrez-le pour regarder ; connectez-vous pour jouer.
worlds-intro = Commandez des compagnies de soldats napoléoniens sur une carte partagée. Un tour passe toutes les quelques heures : connectez-vous une ou deux fois par jour pour donner vos ordres.
worlds-since = Depuis votre dernière visite
yours-title = Vos mondes
yours-all = Tous les mondes
yours-over = la campagne est finie
yours-next-turn = prochain tour
yours-unread = { $n ->
    [one] 1 message non lu
   *[other] { $n } messages non lus
}
yours-raise = Pas encore de compagnie : en lever une
worlds-none = Aucun monde pour l'instant.
worlds-turn = tour { $turn }
worlds-paused = en pause
welcome = Bienvenue, { $name } : votre compte est prêt. Ouvrez un monde ci-dessous et rejoignez une nation pour lever votre première compagnie.

## Saisons
season-summer = été
season-winter = hiver

## La page du monde
world-turn = Tour { $turn }
world-paused = en pause
world-next-turn = prochain tour
# Le compte à rebours jusqu'au prochain tour, tel que le script de la page le remplit.
countdown-hours = dans { $h } h { $m } min { $s } s
countdown-minutes = dans { $m } min { $s } s
# L'heure est passée et le tour pas encore annoncé : le serveur le joue (« prochain tour en cours »).
countdown-due = en cours
# La ligne de la page du monde qui dit si elle suit le monde en direct (le flux en direct).
live-connecting = connexion…
live-on = en direct
live-retry = reconnexion…
live-off = hors ligne
world-nations = Nations
world-reports = Rapports
world-report = Rapport
pan-north = ▲ Nord
pan-south = ▼ Sud
pan-west = ◀ Ouest
pan-east = Est ▶
zoom = zoom
choose-cell = Choisir une case sur la carte
log-in-to-play = <a href="/login?next={ $back }">Connectez-vous</a> ou <a href="/register?next={ $back }">inscrivez-vous</a> pour jouer.
join-title = Rejoindre ce monde
join-nation = Nation
join-button = Rejoindre
joined = Vous servez la nation { $nation }. Levez ci-dessous votre première compagnie : elle apparaîtra là où partent les compagnies de votre nation.
treasury-reserve = Trésor de { $nation } : { $treasury } · votre réserve : { $reserve } hommes
reserve-note = (des hommes qui attendent de renforcer vos compagnies ; { $gain } de plus à chaque tour)
fog-note = Les cases assombries sont hors de vue des compagnies de votre nation : les ennemis qui s'y trouvent ne sont pas affichés.
company-line = { $men } hommes · { $ap } PA
orders = ordres
raise-label = Lever une compagnie : { $cost } pris sur le trésor, à effectif complet (sans puiser dans votre réserve)
raise-placeholder = nom
raise-button = Lever
raise-refused = Aucune compagnie ne peut être levée pour l'instant :
on-leave = En permission jusqu'au { $until } : d'ici là, vos compagnies ne reçoivent aucun ordre, ne peuvent pas être attaquées, et les tours passent sans elles.
leave-title = Partir en permission
leave-for = pour
leave-days = jours
leave-button = Partir en permission
leave-note = Vos compagnies sont figées : elles ne reçoivent aucun ordre et ne peuvent pas être attaquées. La permission ne peut pas être écourtée, ni commencer moins de { $hours } heures après un combat.
gm-title = Maître du jeu
gm-run-turn = Jouer un tour maintenant
gm-change-season = Changer de saison maintenant
gm-pause = Mettre en pause
gm-resume = Reprendre
gm-editor = Éditeur de carte et outils du monde
close-panel = Fermer le panneau de la case
move-cost = Coût pour y entrer cette saison : <strong>{ $ap } PA</strong>
stops-movement = arrête le mouvement
blocks-los = bloque la ligne de vue
protection = Abri : le feu y fait { $volley } % de pertes en moins, les charges { $melee } % en moins.
protection-volley = Abri : le feu y fait { $volley } % de pertes en moins.
protection-melee = Abri : les charges y font { $melee } % de pertes en moins.
owner = Propriétaire : { $owner }
town = Ville : { $town }
structure = Structure : { $structure } / { $max }
breached = ouverte d'une brèche
stands-here = { $name } est sur cette case
cells-away = { $n ->
    [one] à 1 case
   *[other] à { $n } cases
}
hidden = cachée
move-here = S'y rendre ({ $ap } PA)
climb-here = Escalader le mur ({ $ap } PA)
climb-note = Une escalade termine le déplacement, et les défenseurs d'un château frappent les premiers quand on les charge.
wall-way-gate = Une porte fermée : les sapeurs l'enfoncent au bélier, les canons la bombardent ; une fois brisée, tout le monde passe.
wall-way-fortified = Un mur fortifié ne s'escalade jamais : les canons le bombardent jusqu'à la brèche.
wall-way-ladders = L'infanterie escalade ce mur à l'échelle depuis une case voisine hors du château, ou depuis une tour de siège achevée ; les canons peuvent y ouvrir une brèche.
wall-way-hooks = Seuls les voltigeurs escaladent cette tour, au grappin, depuis une case voisine hors du château ; les canons peuvent y ouvrir une brèche.
cannot-move = Impossible d'y aller : { $why }
volley = Salve
melee = Charge
bombard = Bombarder
repair = Réparer
build-bridge = Construire un pont
ram = Enfoncer la porte au bélier ({ $ap } PA)
build-siege-tower = Construire une tour de siège ici ({ $ap } PA)
select-company = Choisissez une de vos compagnies pour voir ce qu'elle peut faire ici.
path-label = Chemin : les cases x,y l'une après l'autre
path-button = Suivre le chemin
path-clear = Effacer
path-help = Choisir une case sur la carte montre ce que votre compagnie peut y faire ;
path-mode = cochez « tracer un chemin » pour ajouter plutôt à ce chemin les cases choisies :
path-mode-box = tracer un chemin
path-by-hand = Tracer un chemin case par case

## La légende
legend-summary = Légende : les marques de la carte et ses terrains
legend-company = une compagnie aux couleurs de sa nation, avec la lettre de son arme (I infanterie, V voltigeurs, C cavalerie, A artillerie, S sapeurs) ; les vôtres portent deux barres, les hommes (vert) et les PA (bleu) ; les autres compagnies de votre nation ont un cercle blanc plein, les ennemies un cercle noir pointillé.
legend-fog = assombrie : hors de vue des compagnies de votre nation ; les ennemis n'y sont pas affichés.
legend-owner = un contour aux couleurs d'une nation : la case lui appartient (ville, mine, ferme ou fort).
legend-structure = une barre jaune sous un fort, des fortifications ou la muraille, la tour ou la porte d'un château : ce qu'il peut encore encaisser ; à zéro, il a une brèche (une fissure blanche) et chacun peut y entrer, sauf les machines de guerre.
legend-breach = une fissure blanche : une muraille ou une tour avec une brèche, ou une porte enfoncée : tous y entrent sauf les machines de guerre (tout le monde par une porte enfoncée).
legend-siege = une tour de siège : pâle tant qu'on la construit ; de là, les compagnies à pied passent sur la muraille ennemie voisine.
legend-rampart = un trait brun épais sur le côté d'une case : un rempart ; les défenseurs frappés à travers lui ne perdent pas de moral, et moitié moins d'hommes dans une charge.
cell-ramparts = { $n ->
    [one] Un rempart sur son côté { $sides } : les défenseurs frappés à travers lui ne perdent pas de moral, et moitié moins d'hommes dans une charge.
   *[other] Des remparts sur ses côtés { $sides } : les défenseurs frappés à travers eux ne perdent pas de moral, et moitié moins d'hommes dans une charge.
}
side-N = N
side-NE = NE
side-E = E
side-SE = SE
side-S = S
side-SW = SO
side-W = O
side-NW = NO
legend-selected = rouge : la case choisie.
legend-path = orange : un chemin en cours de tracé, ou celui que prendrait un déplacement.
legend-rules = Ce que fait chaque terrain, avec tous les chiffres : les règles
legend-terrain = terrain
legend-ap = PA
legend-volley = abri contre le feu
legend-melee = abri contre les charges

## La page des règles
rules-title = Règles
rules-contents = Sommaire
rules-description = Les règles de Grognard avec les chiffres des règles en vigueur : terrains, compagnies, déplacements, combat, tours et campagne.

## Terrains
terrain-plain = plaine
terrain-marsh = marais
terrain-forest = forêt
terrain-river = rivière
terrain-mountain = montagne
terrain-plateau = plateau
terrain-slope = pente
terrain-village = village
terrain-town = ville
terrain-church = église
terrain-farm = ferme
terrain-mine = mine
terrain-mill = moulin
terrain-fields = champs
terrain-animals = pâturage
terrain-road = route
terrain-bridge = pont
terrain-fort = fort
terrain-fortifications = fortifications
terrain-wall = muraille
terrain-fortified_wall = muraille fortifiée
terrain-tower = tour
terrain-gate = porte
terrain-courtyard = cour
terrain-building = bâtiment

## Armes
kind-infantry = infanterie de ligne
kind-voltigeurs = voltigeurs
kind-cavalry = cavalerie
kind-artillery = artillerie
kind-sappers = sapeurs

## Les mails d'alerte
mail-subject = { $n ->
    [one] Grognard : il s'est passé 1 chose pendant votre absence
   *[other] Grognard : il s'est passé { $n } choses pendant votre absence
}
mail-greeting = { $name },

    pendant votre absence :
mail-worlds = Vos mondes : { $url }
mail-stop = Ne plus recevoir ces mails : { $url }

## La page d'un ordre refusé (les refus eux-mêmes sont dans refusals.ftl)
refused-title = Ordre refusé
refused-lead = Ordre refusé :
refused-nothing = Rien n'a été changé.
refused-back = Retour

## Connexion, inscription, la page d'une compagnie
login-title = Connexion
username = Nom d'utilisateur
password = Mot de passe
login-button = Se connecter
login-no-account = Pas encore de compte ? <a href="/register">Inscrivez-vous</a>.
register-title = Inscription
username-rule = (3 à 24 lettres, chiffres, _ ou -)
password-rule = (au moins 10 caractères)
register-button = S'inscrire
register-have-account = Déjà inscrit ? <a href="/login">Connectez-vous</a>.
fig-position = position
fig-men = hommes
fig-wounded = blessés
fig-action-points = points d'action
fig-morale = moral
fig-experience = expérience
fig-perception = vue (cases)
fig-reserve = réserve
fig-full = effectif complet { $n }
fig-ap-max = max { $max }, +{ $per } par tour
fig-reserve-men = { $n } hommes
enemies-title = Ennemis en vue
enemy-at = en ({ $x }, { $y })
none = Aucun.
move-title = Mouvement
move-to = Vers
move-cheapest = Voir le chemin le moins cher
move-path = Chemin
move-button = Avancer
fight-title = Combat
no-volley-kind = { $kind } : pas de salve.
no-volley-target = Aucun ennemi en vue à portée ({ $reach } cases) sur qui tirer.
volley-at = Salve sur
melee-at = Charge sur
away = de distance
fire = Salve ({ $ap } PA)
range = portée { $n }
no-melee-kind = { $kind } : pas de charge.
no-melee-target = Aucun ennemi au contact à charger.
charge = Charge ({ $ap } PA)
expected-losses = en moyenne ils perdent { $inflicted }, vous { $suffered }
bombard-ap = Bombarder ({ $ap } PA)
other-orders = Autres ordres
heal = Soigner
heal-ap = Soigner ({ $ap } PA)
no-room = Effectif complet : pas de place pour des renforts.
reserve-empty-note = Votre réserve est vide : elle grandit de { $gain } hommes à chaque tour, et renforce une compagnie qui se tient sur une ville, un village ou une ferme de votre nation.
reinforce-with = Renforcer de
reinforce-ap = Renforcer ({ $ap } PA)
reinforce-note = pris sur votre réserve de { $n }, { $cost } ressource(s) par homme, sur une ville, un village ou une ferme de votre nation
bridge-at = Jeter un pont sur la rivière en
build-ap = Construire ({ $ap } PA)
repair-at = Réparer en
repair-ap = Réparer ({ $ap } PA)

## Rapports, nations, alertes
reports-title = Rapports
reports-none = Rien à signaler pour l'instant.
reports-older = Rapports plus anciens
nations-title = Nations
col-nation = nation
col-towns = villes
col-mines = mines
col-forts = forts
col-treasury = trésor
col-players = joueurs
col-companies = compagnies
nations-yours = { $nation } : votre nation
nations-members = Membres : { $list }
nations-fog-note = Les compagnies et le trésor d'une autre nation sont connus une fois la campagne finie : ils sont sa force.
regiments-title = Régiments
regiment-hq = quartier général ({ $x }, { $y })
regiment-yours = (le vôtre)
regiment-hq-on = QG sur la ferme en
regiment-set = Établir
regiment-found = Fonder un régiment
regiment-found-button = Fonder
alerts-intro = Ce qui vous est arrivé pendant votre absence : vos compagnies attaquées, le terrain perdu par votre nation, les tours sur le point de commencer. <a href="/account#mail">Les recevoir par mail</a>.
alerts-none = Rien pour l'instant.
mails-title = Mails d'alerte
mails-stopped = Vous ne recevrez plus de mails d'alerte. Vos alertes vous attendent toujours sur le site ; vous pouvez redemander les mails depuis la page de votre compte.
mails-link-unused = Ce lien ne sert plus : ses mails ont déjà été arrêtés, ou redemandés depuis.

## Un rapport
report-turn = tour { $turn }
report-steps = Étapes :
report-road = route
report-total = total { $ap } PA
report-attacker = { $name } (assaillant)
report-defender = { $name } (défenseur)
report-kind-terrain = arme, terrain
report-men-before = hommes avant
report-damage-rolled-against = dégâts tirés contre
report-raw-losses = pertes brutes
report-protection = protection
report-losses = pertes
report-men-after = hommes après
report-morale = moral
report-experience = expérience
report-split = { $killed } tués, { $wounded } blessés
report-destroyed = détruite
report-structure = Structure { $before } → { $after } sur { $max }
report-dice = Dés :
report-details = Le détail du combat

## La page du compte
account-title = Votre compte
account-role = Rôle : { $role }
tokens-title = Jetons d'API
tokens-intro = Les jetons permettent à vos propres outils d'utiliser l'<a href="/api/v1/openapi.json">API JSON</a> avec <code>Authorization: Bearer &lt;jeton&gt;</code>.
token-new = Nouveau jeton (copiez-le maintenant, il ne sera plus affiché) :
col-name = nom
col-created = créé le
col-last-used = dernier usage
never = jamais
revoke = Révoquer
tokens-none = Aucun jeton pour l'instant.
token-name = Nom
token-placeholder = mes scripts
token-create = Créer un jeton
push-title = Notifications sur cet appareil
push-intro = Vos alertes (une attaque, du terrain perdu, le tour qui approche, un message) s'affichent sur cet appareil même quand le site est fermé. Activez-les sur chaque appareil où vous les voulez.
push-switch = M'avertir sur cet appareil
push-noscript = Les notifications demandent JavaScript.
push-state-off = Désactivées sur cet appareil.
push-state-on = Activées : vos alertes arrivent sur cet appareil.
push-state-working = Un instant…
push-state-unsupported = Ce navigateur ne peut pas afficher les notifications d'un site.
push-state-denied = Les notifications de ce site sont bloquées dans les réglages du navigateur.
push-state-failed = Impossible d'activer les notifications : ce navigateur n'a pas de service de push ici.
push-reminders-title = Rappels et heures calmes
push-reminders-intro = En plus de vos alertes, vous pouvez recevoir ces rappels, sur le site et sur vos appareils qui affichent les notifications :
push-reminder-full-ap = une de mes compagnies a tous ses points d'action après un tour
push-reminder-turn-unspent = le tour commence dans { $minutes } minutes et une de mes compagnies y perdrait des points d'action
push-reminder-section-lost = ma nation a perdu une section de château
push-reminder-board = quelqu'un a écrit sur le tableau de ma nation
push-quiet-from = Heures calmes : de
push-quiet-to = à
push-quiet-note = Aucune notification entre les deux ; ce qui arrive attend leur fin. Heures du fuseau de ce navigateur (sans JavaScript, celui enregistré la dernière fois, UTC au départ) ; laissez les deux vides pour n'en avoir aucune.
push-daily-cap-label = Notifications par jour au plus (la dernière dit que le reste attend sur le site)
mail-title = Alertes par mail
saved = Enregistré.
mail-address = Adresse e-mail
mail-opt-in = M'envoyer mes alertes par mail (vos compagnies attaquées, le terrain perdu par votre nation, un tour sur le point de commencer), au plus une fois toutes les { $minutes } minutes
save = Enregistrer
mail-stop-note = Chaque mail contient un lien qui les arrête en un clic.
password-title = Mot de passe
password-current = Mot de passe actuel
password-new = Nouveau mot de passe (au moins 10 caractères)
password-change = Changer le mot de passe
password-note = Toutes les autres sessions de votre compte prennent fin ; vos jetons d'API continuent de fonctionner.
password-changed = Votre mot de passe a changé ; toutes les autres sessions de votre compte ont pris fin.

## What happened, as reports, alerts and mails say it
said-and = {" ; "}
said-raise = { $player } lève { $name } ({ $kind }) en ({ $x }, { $y }) pour { $cost }
said-move = { $name } se porte en ({ $x }, { $y }) pour { $ap } PA
said-captured-mine = prend la mine en ({ $x }, { $y })
said-captured-fort = entre par la brèche et prend le fort en ({ $x }, { $y })
said-captured-castle = prend la case du château en ({ $x }, { $y })
said-took-town = prend la ville de { $town }
said-volley = { $name } ouvre le feu sur { $target } en ({ $x }, { $y }) : { $target } perd { $losses ->
    [one] { $losses } homme
   *[other] { $losses } hommes
} ({ $killed ->
    [one] { $killed } tué
   *[other] { $killed } tués
}, { $wounded ->
    [one] { $wounded } blessé
   *[other] { $wounded } blessés
})
said-charge = { $name } charge { $target } en ({ $x }, { $y }) : { $target } perd { $losses ->
    [one] { $losses } homme
   *[other] { $losses } hommes
} ({ $killed ->
    [one] { $killed } tué
   *[other] { $killed } tués
}, { $wounded ->
    [one] { $wounded } blessé
   *[other] { $wounded } blessés
})
said-lost = { $name } perd { $losses ->
    [one] { $losses } homme
   *[other] { $losses } hommes
}
said-destroyed = la compagnie { $name } est anéantie
said-bombard = { $name } bombarde { $terrain ->
    [fort] le fort
    [fortifications] les fortifications
    [wall] la muraille
    [fortified_wall] la muraille fortifiée
    [tower] la tour
    [gate] la porte
   *[other] { $terrain }
} en ({ $x }, { $y }) : { $before } → { $after }
said-bombard-breached = { $name } bombarde { $terrain ->
    [fort] le fort
    [fortifications] les fortifications
    [wall] la muraille
    [fortified_wall] la muraille fortifiée
    [tower] la tour
    [gate] la porte
   *[other] { $terrain }
} en ({ $x }, { $y }) : { $before } → { $after }, la brèche est ouverte
said-bombard-siege-tower = { $name } bombarde la tour de siège en ({ $x }, { $y }) : { $before } → { $after }
said-bombard-siege-tower-gone = { $name } bombarde la tour de siège en ({ $x }, { $y }) : { $before } → { $after }, elle s'effondre
said-ram = { $name } frappe au bélier la porte en ({ $x }, { $y }) : { $before } → { $after }
said-ram-broken = { $name } frappe au bélier la porte en ({ $x }, { $y }) : { $before } → { $after }, elle cède
said-siege-tower-build = { $name } construit une tour de siège en ({ $x }, { $y }) : { $builds } sur { $needed }
said-siege-tower-built = { $name } achève une tour de siège en ({ $x }, { $y })
said-repair = { $name } répare { $terrain ->
    [fort] le fort
    [fortifications] les fortifications
    [wall] la muraille
    [fortified_wall] la muraille fortifiée
    [tower] la tour
    [gate] la porte
   *[other] { $terrain }
} en ({ $x }, { $y }) : { $before } → { $after }
said-bridge = { $name } jette un pont sur la rivière en ({ $x }, { $y })
said-heal = { $name } soigne { $healed ->
    [one] { $healed } blessé
   *[other] { $healed } blessés
}
said-reinforce = { $name } reçoit { $men ->
    [one] { $men } homme
   *[other] { $men } hommes
} de la réserve pour { $cost }{ $limited ->
    [room] {" "}({ $asked } demandés : la compagnie est au complet)
    [reserve] {" "}({ $asked } demandés : la réserve est vide)
    [treasury] {" "}({ $asked } demandés : le trésor est vide)
   *[none] {""}
}
said-turn = Le tour { $turn } commence
said-season = { $season ->
    [winter] L'hiver arrive
   *[other] L'été revient
}
said-leave = { $player } part en permission pour { $days } jours
said-turn-soon = { $world } : le tour { $turn } commence dans { $minutes } min
said-webhook-off = Votre webhook vers { $url } a échoué { $failures } fois de suite et a été désactivé ; ajoutez-le de nouveau quand il fonctionnera
push-daily-cap = Les autres alertes du jour vous attendent sur le site : votre nombre de notifications par jour est atteint.

## Game master and admin pages
gm-worlds = Mondes
col-world = monde
col-size = taille
col-turn = tour
col-season = saison
gm-paused = (en pause)
gm-edit = modifier
gm-play-view = vue du joueur
gm-audit = journal
gm-download = télécharger
gm-empty-title = Un monde vide
gm-name = Nom
gm-width = Largeur
gm-height = Hauteur
gm-nations-colours = Nations (nom et couleur, séparées par des virgules)
gm-create = Créer
gm-generated-title = Un monde généré
gm-seed = Graine
gm-nations-count = Nations
gm-generate = Générer
gm-upload-title = Importer une carte
gm-kind = Type
gm-kind-grognard = Fichier de carte Grognard (JSON)
gm-kind-tiled = Carte Tiled (jeux de tuiles intégrés)
gm-tiled-format = Format Tiled
gm-name-tiled = Nom (cartes Tiled)
gm-file = Fichier
gm-contents = Contenu
gm-paste = collez le fichier ici
gm-import = Importer
audit-title = Journal
audit-log = Journal des modifications
audit-gm = Maître du jeu
audit-cell = Case
audit-filter = Filtrer
audit-all = tout
col-when = quand
col-who = qui
col-what = quoi
col-target = cible
col-before = avant
col-after = après
audit-none = Aucune modification enregistrée.
audit-older = Plus anciennes
col-username = nom d'utilisateur
col-role = rôle
col-banned = banni
col-change = modifier
role-player = joueur
role-gm = maître du jeu
role-admin = administrateur
yes = oui
no = non
not-banned = non banni
banned = banni
editor-title = Éditeur
editor-heading = éditeur de carte
editor-download = télécharger la carte
editor-saving = enregistrement des cases :
editor-saving-rampart = enregistrement du rempart du côté
editor-saved = cases enregistrées :
editor-refused = refusé :
editor-silent = le serveur n'a pas répondu
editor-terrains = terrains
editor-tool = Outil
editor-paint = peindre
editor-rect = remplir un rectangle
editor-inspect = examiner
editor-brush = Pinceau
editor-also-set = fixer aussi
editor-town = ville
editor-name-or-none = nom ou -
editor-owner = propriétaire
editor-nobody = personne
editor-structure = structure
editor-n-or-none = n ou -
editor-undo = Annuler
editor-world = Monde
editor-set-season = Fixer la saison
editor-cell-title = Modifier une case
editor-terrain = Terrain
editor-unchanged = (inchangé)
editor-town-help = Ville (un nouveau nom la fonde ; - pour aucune)
editor-owner-label = Propriétaire
editor-structure-help = Structure (- pour aucune)
editor-castle-help = Château (un nom nouveau en fonde un, - pour aucun)
error-cell-castle-name = case ({ $x }, { $y }) : un nom de château a de 1 à { $max } caractères
editor-save-cell = Enregistrer la case
editor-undo-last = Annuler ma dernière modification
editor-spawns = Cases d'apparition
editor-set = Fixer
editor-companies = Compagnies en vue
editor-at = en
editor-men = hommes
editor-wounded = blessés
editor-ap = PA
editor-morale = moral
editor-remove = Retirer

## Errors
error-rate-limited = trop de tentatives ; réessayez dans { $s } secondes
error-busy = le serveur est occupé ; réessayez dans { $s } secondes
error-campaign-over = la campagne est terminée : le monde se consulte, il ne se joue plus
error-paused = le monde est en pause
error-log-in = veuillez vous connecter
error-form-expired = ce formulaire a expiré ou ne vient pas de ce site ; rechargez la page et réessayez
error-session-ended = votre session a pris fin ; reconnectez-vous
error-username-length = un nom d'utilisateur compte de { $min } à { $max } caractères
error-username-letters = un nom d'utilisateur ne peut contenir que des lettres, des chiffres, _ et -
error-username-taken = le nom d'utilisateur « { $name } » est déjà pris
error-password-short = un mot de passe compte au moins { $n } caractères
error-password-long = un mot de passe compte au plus { $n } caractères
error-current-password = le mot de passe actuel n'est pas le bon
error-banned = ce compte est banni
error-wrong-password = nom d'utilisateur ou mot de passe incorrect
error-no-such = { $what } n'existe pas
what-world = ce monde
what-bot = bot
what-company = cette compagnie
what-company-of-yours = cette compagnie (parmi les vôtres)
what-regiment-of-your-nation = ce régiment (dans votre nation)
what-token = ce jeton
what-user = cet utilisateur
error-no-page = il n'y a pas de page à cette adresse
error-join-first = rejoignez d'abord ce monde avec une nation
error-turn-running = un tour est en cours d'application dans ce monde ; réessayez dans un instant
error-joined = vous avez déjà rejoint ce monde
error-no-nation = pas de nation « { $nation } » dans ce monde
error-bot-level = niveau de bot inconnu « { $level } » (easy, normal ou hard)
error-bot-name = plus de nom libre pour un autre bot de cette nation
error-control = un { $what } ne peut pas contenir de caractères de contrôle
error-name-length = un { $what } compte de 1 à { $max } caractères
what-company-name = nom de compagnie
what-regiment-name = nom de régiment
what-token-name = nom de jeton
error-company-name-taken = vous commandez déjà une compagnie nommée « { $name } » : donnez-en un autre à celle-ci
error-regiment-name-taken = il existe déjà un régiment nommé « { $name } »
error-hq-members = seuls les membres d'un régiment peuvent en placer le quartier général
error-token-name = un nom de jeton compte au plus { $max } caractères
error-not-address = « { $address } » n'est pas une adresse e-mail
error-no-address = indiquez l'adresse où envoyer les alertes
error-leave-days = indiquez le nombre de jours de permission
error-query = paramètres d'adresse incorrects : { $detail }
error-form = ce formulaire n'a pas pu être lu : { $detail }
error-path-length = un chemin compte au plus { $max } étapes
error-path = un chemin est une liste de cases : [[x, y], …] ou x,y x,y …
error-to-or-path-not-both = envoyez une destination (`to`) ou un chemin (`path`), pas les deux
error-to-or-path = envoyez une destination (`to`) ou un chemin (`path`)
error-give = indiquez { $what } (`{ $field }`)
error-not-cell = { $what } doit être une case : [x, y] ou x,y
error-not-whole = { $what } doit être un nombre entier
error-no-action = pas d'action « { $action } »
what-each-step = chaque étape
what-destination = la destination
what-company-to-attack = la compagnie à attaquer
what-target = la cible
what-cell = la case
what-farm = la ferme
what-how-many-men = le nombre d'hommes
what-number-of-men = le nombre d'hommes
error-page-title = Erreur { $code }
error-page-back = Retour aux mondes
error-cell-terrain = case ({ $x }, { $y }) : terrain « { $terrain } » inconnu
error-cell-bridge = case ({ $x }, { $y }) : le terrain « { $terrain } » ne peut remplacer qu'une rivière
error-cell-nation = case ({ $x }, { $y }) : nation « { $nation } » inconnue
error-cell-owner = case ({ $x }, { $y }) : le terrain « { $terrain } » ne peut pas avoir de propriétaire
error-cell-structure-range = case ({ $x }, { $y }) : la structure { $structure } sort de 0..={ $max } pour le terrain « { $terrain } »
error-cell-no-structure = case ({ $x }, { $y }) : le terrain « { $terrain } » n'a pas de structure
error-cell-needs-structure = case ({ $x }, { $y }) : le terrain « { $terrain } » demande une structure
error-cell-town-name = case ({ $x }, { $y }) : un nom de ville compte de 1 à { $max } caractères
error-cell-company = case ({ $x }, { $y }) : la compagnie qui s'y tient ne pourrait pas y rester : { $why }
error-cell-twice = la case ({ $x }, { $y }) figure deux fois
error-no-cell = aucune case à modifier
error-too-many-cells = au plus { $max } cases par requête
error-nothing-to-undo = il ne reste aucune de vos modifications à annuler
error-range = { $what } doit être compris entre { $lo } et { $hi } (reçu : { $v })
error-yes-no = { $what } vaut yes ou no, pas « { $value } »
error-give-number = indiquez { $what } sous forme de nombre
error-not-number = { $what } « { $value } » n'est pas un nombre
error-not-xy = « { $value } » n'est pas une case x,y
error-spawn = indiquez la case d'apparition sous la forme x,y
error-how = façon inconnue de créer un monde : « { $how } »
error-season = saison « { $season } » inconnue (summer ou winter)
error-role = rôle « { $role } » inconnu (player, gm ou admin)
error-self-admin = vous ne pouvez ni vous bannir ni renoncer à votre propre rôle d'administrateur
what-width = la largeur
what-points = les points de la victoire
what-end-turn = le dernier tour
what-towns-share = la part des villes (de 0 à 1)
what-height = la hauteur
what-seed = la graine
what-nation-count = le nombre de nations
what-x = x
what-y = y
selected-ap = { $name } : { $ap } PA
col-kind = arme
map-label = carte
unit-on-leave = en permission
unit-men = hommes


cell-steadier = Les hommes y tiennent mieux (confiance +{ $n }) : plus de tombés sont seulement blessés.
cell-shakier = Les hommes y flanchent plus vite (confiance { $n }) : plus de tombés sont tués.
cell-sees-farther = Une compagnie y voit { $n } { $n ->
    [one] case
   *[other] cases
} plus loin.
cell-sees-less = Une compagnie y voit { $n } { $n ->
    [one] case
   *[other] cases
} moins loin.
first-day-title = Votre première journée
first-day-join = Rejoindre une nation
first-day-raise = Lever une compagnie
first-day-move = La déplacer : choisissez une case sur la carte, puis « S'y rendre »
first-day-fog = Regarder dans le brouillard : choisissez une case assombrie
first-day-volley = Combattre : une salve sur un ennemi à portée, ou une charge sur un ennemi au contact
first-day-report = Lire un rapport (Rapports, en haut)
first-day-done = fait
map-scroll-cue = Faites glisser la carte pour en voir plus

## Nations of the shipped maps, as each language names them (other names stay as written).
name-france = France
name-russia = Russie
name-prussia = Prusse
name-austria = Autriche
name-england = Angleterre
name-spain = Espagne
meta-description = Grognard : un jeu de stratégie persistant, des compagnies napoléoniennes sur une carte partagée. Connectez-vous une ou deux fois par jour, donnez vos ordres, disputez mines, villes et forts.
said-campaign-won = { $world } : la campagne est terminée après le tour { $turn } ({ $why }) : { $nation } l'emporte avec { $points } points
said-campaign-draw = { $world } : la campagne est terminée après le tour { $turn } ({ $why }) : match nul
campaign-why-points = une nation a atteint les points de la victoire
campaign-why-towns = une nation tient les villes
campaign-why-last_turn = son dernier tour
campaign-why-game_master = close par un maître du jeu

## Le classement, les palmarès et le panthéon
world-standings = Classement
standings-title = Classement
standings-to-win = Pour gagner : { $points } points, ou { $share } % des villes sans compagnie ennemie.
standings-last-turn = Sinon, la nation qui a le plus de points après le tour { $turn } l'emporte.
standings-won = { $nation } a gagné la campagne après le tour { $turn }
standings-draw = La campagne s'est achevée sur un match nul après le tour { $turn }
standings-next = La campagne suivante sur cette carte :
world-over = La campagne est terminée : ce monde se consulte, il ne se joue plus.
world-over-see = Voir le résultat
col-points = points
col-sections = sections de château
chart-points = Points de victoire
chart-towns = Villes tenues
chart-mines = Mines tenues
chart-turn = tour
chart-empty = Aucun tour n'a encore été joué.
rankings-title = Joueurs
rankings-note = Tels que le dernier tour les a laissés. Les joueurs d'une autre nation sont listés sans leur nation.
rank-by-inflicted = Ennemis mis hors de combat
rank-by-lost = Hommes perdus
rank-by-captures = Prises
rank-by-xp = Expérience
rank-by-turns = Tours joués
rank-by-points = Points de la nation
col-player = joueur
col-inflicted = hors de combat
col-lost = perdus
col-captures = prises
col-xp = XP
col-turns = tours joués
rankings-you = vous
rankings-none = Aucun joueur classé pour l'instant : un joueur est classé à partir du tour qui suit son arrivée.
rankings-your-place = Votre place : { $rank } sur { $players }.
rankings-page = page { $page } sur { $pages }
rankings-prev = ← précédente
rankings-next = suivante →
hall-title = Panthéon
hall-won = { $nation } l'a emporté après le tour { $turn } avec { $points } points
hall-draw = match nul après le tour { $turn }
worlds-over = campagne terminée
gm-campaign = Campagne
gm-end-campaign = Terminer la campagne maintenant
gm-next-campaign = Lancer la campagne suivante sur cette carte
gm-next-name = Nom (facultatif)
gm-victory = Victoire : points, dernier tour (0 : aucun), part des villes
gm-set = Fixer
castles-title = Châteaux
castles-note = Chaque section est tenue par la seule nation qui y a des compagnies, telle que le dernier tour l'a trouvée ; chacune rapporte des points à sa nation à chaque tour. Vous savez qui tient une section quand votre nation la tient ou y a vu ses compagnies au tour.
col-section = section
col-held-by = tenue par
section-owned-unmanned = terrain de { $nation }, aucun occupant vu
section-held-by = tenue par { $nation }
section-no-holder = aucun occupant vu
cell-section = Château { $castle } : { $section }
section-tower = tour
section-gate = porte
section-wall = muraille
section-courtyard = cour
# A courtyard's quarter, by the compass.
quarter-NW = NO
quarter-NE = NE
quarter-SW = SO
quarter-SE = SE

## Parler : messages, tableau de la nation, repères, modération
nav-messages = Messages
world-messages = Messages
messages-title = Messages
messages-board = le tableau de la nation
messages-board-of-nation = Le tableau de votre nation
messages-announcements = Des maîtres du jeu
messages-announce = Une annonce à tous les joueurs de ce monde
messages-send = Envoyer
messages-conversations = Conversations
messages-no-conversations = Pas encore de conversation.
messages-write-to = Écrire à un joueur :
messages-no-such-player = Aucun joueur nommé « { $name } » ne joue dans ce monde.
messages-did-you-mean = Vouliez-vous dire
messages-pick-a-name = Choisissez un nom dans la liste du champ « Écrire à un joueur ».
messages-open = Ouvrir
messages-blocked-list = Bloqués : { $list }
messages-with = Avec { $player }
messages-block = Bloquer { $player }
messages-unblock = Débloquer { $player }
messages-write-player = Votre message à { $player }
messages-write-board = Votre message à votre nation (seuls ses joueurs lisent le tableau)
messages-none = Rien d'écrit ici pour l'instant.
messages-report = Signaler
messages-report-reason = Pourquoi ?
messages-report-send = Signaler aux maîtres du jeu
messages-reply = Répondre en privé
messages-older = Messages plus anciens
said-full-ap = { $count ->
    [one] { $names } a
   *[other] { $count } compagnies ({ $names }) ont
} tous leurs points d'action
said-turn-unspent = Le tour commence dans { $minutes } min et { $count ->
    [one] { $names } y perdrait
   *[other] { $count } compagnies ({ $names }) y perdraient
} des points d'action
said-section-lost = Votre nation a perdu une section de { $castle } : { $section }
said-board = { $player } a écrit sur le tableau de votre nation
said-message-from = { $player } vous a envoyé un message
said-announcement = { $player } (maître du jeu) s'adresse à tout le monde
what-player = joueur
what-message = message
what-marker = repère
what-report = signalement
error-message-length = un message compte de 1 à { $max } caractères
error-marker-length = l'étiquette d'un repère tient sur une ligne de 1 à { $max } caractères
error-control-characters = le texte contient des caractères de contrôle
error-message-to-self = vous ne pouvez pas vous écrire à vous-même
error-blocked = { $player } ne reçoit pas vos messages
error-muted = un maître du jeu vous a rendu muet : vous pourrez écrire de nouveau dans { $minutes } minutes
error-block-self = vous ne pouvez pas vous bloquer vous-même
error-off-the-map = ({ $x }, { $y }) est hors de la carte
error-too-many-markers = vous avez { $max } repères posés : retirez-en un d'abord
error-marker-not-yours = seul son auteur ou un maître du jeu retire un repère
error-report-own = vous ne pouvez pas signaler votre propre message
error-mute-hours = un silence dure de 0 à { $max } heures
markers-here = Repères ici
marker-by = par { $player }, jusqu'au tour { $turn }
marker-drop = Marquer cette case pour votre nation
marker-label = Étiquette
marker-drop-button = Poser un repère
marker-remove = Retirer
legend-marker = un repère de votre nation (son étiquette dans le panneau de la case) ; seule votre nation le voit
moderation-title = Modération
moderation-intro = Les messages signalés par les joueurs. Retirer un message le cache à tous ; rendre muet empêche un joueur d'écrire pour un temps. Chaque geste va au journal.
moderation-none = Aucun signalement ouvert.
moderation-reported-by = signalé par { $player } : { $reason }
moderation-remove = Retirer le message
moderation-mute = Rendre { $player } muet pendant
moderation-hours = heures
moderation-mute-button = Rendre muet
moderation-dismiss = Classer le signalement
moderation-muted-until = muet jusqu'au { $until }
error-moderation-form = choisissez retirer, classer ou rendre muet, avec le message, le signalement ou le joueur et les heures
error-username-reserved = « { $name } » est réservé au jeu ; choisissez un autre nom
battle-note-first_strike = Les défenseurs sur le mur ont frappé les premiers : les assaillants ont combattu avec les hommes restants.
battle-note-close_quarters = Corps à corps (mur, tour, porte ou bâtiment) : dégâts réduits de moitié des deux côtés.
battle-note-siege_tower = Les assaillants venaient d'une tour de siège : pas de premier coup.
battle-note-rampart = Un rempart du côté d'où venait le coup : les défenseurs n'ont pas perdu de moral (et en mêlée, moitié moins d'hommes).
battle-note-obscured = La salve a traversé un couvert : la cible était masquée (protection accrue).
editor-rampart-side = Rempart sur le côté
editor-rampart-set = Poser
editor-rampart-remove = Retirer
edge-rampart = rempart
gm-grid = Cases
grid-square = carrées
grid-hex = hexagonales
editor-rampart-tool = remparts : cliquer un côté
channel-private = un message privé
channel-nation = le tableau de la nation
channel-world = tout le monde

## Bots
bot-mark = (ordinateur)
bot-title = joué par le serveur
world-bots = { $nations } { $count ->
    [one] est jouée
   *[other] sont jouées
} par l'ordinateur.
away-title = Pendant votre absence
away-opt-in = Si je ne donne aucun ordre pendant { $turns } tours, le bot de ma nation tient mes compagnies
away-note = Il se contente de défendre, de soigner et de les garder hors des pièges ; il ne les mène nulle part et ne dépense pas le trésor. Votre premier ordre vous les rend. Une nation sans bot ne tient rien.
editor-bots = Bots
editor-no-bots = Aucune nation n'est jouée par l'ordinateur.
editor-bot-nation = Nation du nouveau bot
editor-bot-level = Niveau du nouveau bot
editor-bot-add = Installer un bot
editor-bot-remove = Arrêter
bot-level-easy = facile
bot-level-normal = normal
bot-level-hard = difficile
