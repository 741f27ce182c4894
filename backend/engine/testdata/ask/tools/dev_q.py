import json, os
Q=[]
def q(kind, answerable, question, expected, must_have, source, trap=""):
    Q.append({"id":"d%02d"%(len(Q)+1),"question":question,"kind":kind,"answerable":answerable,
              "expected":expected,"must_have":must_have,"source":source,"trap":trap})
N="notes/"
M1=N+"Ballinroe Choir committee minutes 2024-09-10.txt"; M2=N+"choir cttee mtg 12 Nov 2024.md"
EM=N+"emails St Colmans church hire.txt"; LL=N+"letter Moriarty rent review Oct 2024.txt"
I1=N+"Lanigan invoice LMS-24-0312.txt"; I2=N+"Lanigan invoice LMS-24-0347.txt"; CN=N+"Lanigan credit note LMS-CN-24-019.txt"
EX=N+"choir expenses autumn 2024.md"; CT=N+"contacts choir etc.csv"; SV=N+"bramble home server notes.md"
RC=N+"mulled wine + mince pies for concert.md"; VL=N+"Berlingo log 2024.txt"; GL=N+"choir words for new members.md"
PN=N+"phone + todo notes Nov.txt"
# Questions where the documents give different values (expected lists both): d01-d05, d15
# ================= VALUE =================
q("value",True,"After the credit note, what's left to pay on the Lanigan's invoice for the folders and stands?",
  "The documents disagree: the credit note LMS-CN-24-019 prints a balance outstanding of EUR 538.02 (invoice LMS-24-0347 629.76 less credit 46.74), but the correct figure is EUR 583.02 — Sinéad in Lanigan's accounts confirmed on the phone that the printed balance has its digits swapped; 583.02 was paid by EFT on 8 Nov.",
  ["583.02","538.02"], CN+":23-25; "+PN+":5-6; "+EX+":12; "+I2+":20")
q("value",True,"What date is the Christmas concert on?",
  "It moved: the September minutes (and Niamh's first e-mail) have Sat 14 Dec, 7.30pm in St Colman's; because the church has a wedding that Saturday, the 12 Nov meeting moved it to Sun 15 Dec, 7pm (doors 6.30); the parish offered Sunday 15 December from 5pm.",
  ["14 Dec","15 Dec"], M1+":10; "+EM+":9,25-28; "+M2+":7")
q("value",True,"What are we paying St Colman's to use the church for the concert?",
  "Three figures appear: the September minutes note €250 + €50 towards heating (to be confirmed); Bernadette's e-mail of 8 Oct says €280 hire + €60 heating = €340 in total; the November minutes and her e-mail of 13 Nov give €320 all in (heating reduced to €40). Deposit €100 (paid 22/11), balance €220 on the night.",
  ["340","320"], M1+":14-15; "+EM+":30-32,63-64; "+M2+":8; "+PN+":9; "+EX+":14,21")
q("value",True,"How much is an adult ticket for the concert?",
  "It changed: €15 adult (€10 concession, under 12s free) in the September minutes; at the 12 Nov meeting tickets went up to €18 adult / €12 concession (under 12s still free), vote 5–1.",
  ["€15","€18"], M1+":13; "+M2+":9")
q("value",True,"How big is the choir these days — how many paid-up members?",
  "Two figures: 52 paid up for the autumn term in September (S 18, A 14, T 8, B 12); 55 at the November meeting after 3 new tenors joined (all but 2 have paid fees).",
  ["52","55"], M1+":18; "+M2+":22")
q("value",True,"What's my rent going up to, and from when?",
  "From €1,150.00 to €1,173.00 per month, with effect from 1 February 2025 (letter of 28 October 2024, 90 days' notice); payments from January go to the new account, reference MILL-APT3.",
  ["1,173.00","1 February 2025"], LL+":17-20,23-28")
q("value",True,"What did Lanigan's charge for the Messiah scores, and by when did it have to be paid?",
  "Invoice LMS-24-0312 of 23/09/2024: TOTAL DUE EUR 664.75 (45 vocal scores 627.75 + 2 Carols for Choirs 37.00, VAT 0%, free delivery), due 23/10/2024 (30 days net); it was paid by EFT on 08/10.",
  ["664.75","23/10/2024"], I1+":14-22; "+EX+":9")
q("value",True,"How much did the bag-packing day at SuperValu raise?",
  "€612.40 (bag-pack on 26 Oct).",
  ["612.40"], M2+":17; "+EX+":27")
q("value",True,"How many tickets have we sold in advance so far?",
  "72 presale tickets up to 1 Dec (60 adult, 12 concession), €1,224.00; the target was 180.",
  ["72","1,224.00"], EX+":28; "+M1+":13")
q("value",True,"How much has the choir spent altogether this term?",
  "€1,907.08 so far according to the expenses sheet; still to come: church balance €220, Orla €180 and possibly €95 for Liam Dowd.",
  ["1,907.08"], EX+":19-21")
q("value",True,"How long are the backups on my home server kept?",
  "restic keeps 7 daily, 4 weekly and 6 monthly snapshots (`restic forget --keep-daily 7 --keep-weekly 4 --keep-monthly 6 --prune`, run on Sundays); the backup itself runs every night at 02:30 to the WD Elements disk.",
  ["--keep-daily 7","--keep-weekly 4","--keep-monthly 6"], SV+":19-21")
q("value",True,"When is the Berlingo due for its next service?",
  "At 164,000 km or 03/2025, whichever comes first (last service at Hogan's on 11/03, €265.00).",
  ["164,000","03/2025"], VL+":8-9")
q("value",True,"How much more is the car insurance this year?",
  "Clarecover renewal on 01/11: €612.00, up from €548.00 last year (€64 more).",
  ["612.00","548.00"], VL+":16-17")
q("value",True,"Which version of sed brought in the --debug option?",
  "sed 4.6 (released 2018-12-19): new option --debug prints the input sed script in canonical form and annotates program execution.",
  ["4.6"], "debian/sed-NEWS:70,97-100")
q("value",True,"Is easyjson really that much quicker than the standard encoding/json package — by how much?",
  "The README gives different figures: the introduction says it outperforms encoding/json by a factor of 4-5x; the benchmark section says roughly 5-6 times faster for unmarshaling, 3-4 times faster for non-concurrent marshaling and 6-7x for concurrent marshaling to a writer.",
  ["4-5x","5-6 times"], "go/easyjson-README.md:3-6,252-256")
q("value",True,"Since which diffutils release can diff produce coloured output?",
  "diffutils 3.4 (2016-08-08) added --color (always/auto/never) and --palette.",
  ["3.4","--color"], "debian/diffutils-NEWS:78-85")
q("value",True,"Which version of the CommonMark spec does goldmark follow?",
  "CommonMark 0.31.2.",
  ["0.31.2"], "go/goldmark-README.md:10")
q("value",True,"When did readdirp 4.0 come out, and which Node.js does it need?",
  "4.0 was released Aug 25, 2024 (rewritten in TypeScript, hybrid CommonJS/ESM, glob support and dependencies removed); 4.x needs node 14+.",
  ["Aug 25, 2024","node 14+"], "npm/readdirp-README.md:90-92,111-112")
q("value",True,"On a fresh Debian install, what is PermitRootLogin set to in sshd?",
  "\"PermitRootLogin prohibit-password\" (synonym \"without-password\"), i.e. no password login for root, since 1:6.6p1-1; systems upgraded from before that keep \"yes\".",
  ["prohibit-password"], "debian/openssh-client-README.Debian:10-21")
q("value",True,"How does zstd at level 1 compare with zlib in the README benchmark?",
  "zstd 1.5.1 -1: ratio 2.887, 530 MB/s compression, 1700 MB/s decompression; zlib 1.2.11 -1: ratio 2.743, 95 MB/s compression, 400 MB/s decompression.",
  ["2.887","530 MB/s","95 MB/s"], "debian/zstd-README.md:45-48")
q("value",True,"What permissions does adduser give new home directories by default?",
  "DIR_MODE defaults to 0700 for normal users and SYS_DIR_MODE to 0755 for system users (final since adduser 3.123; 3.122 briefly used 2700).",
  ["0700","0755"], "debian/adduser-README:147-158,166-169,202-204")
# ================= LIST =================
q("list",True,"What were the action points from the November committee meeting?",
  "Niamh: pay the church deposit €100 by 29 Nov; Róisín: update posters + Facebook with the new date; Aoife: confirm Orla (accompanist); Tomasz: risers, Sun 15th 3pm; Marguerite: mulled wine / mince pies, shopping list + receipts to Niamh.",
  ["deposit","posters","Orla","risers","mulled wine"], M2+":27-32")
q("list",True,"Who was at the committee meeting in September?",
  "Fergal Duignan (chair), Róisín Tierney (secretary, minutes), Niamh Corrigan (treasurer), Aoife Kinsella (musical director), Padraig Hehir (music librarian), Marguerite Lalor (fundraising); apologies from Tomasz Wróbel.",
  ["Fergal Duignan","Róisín Tierney","Niamh Corrigan","Aoife Kinsella","Padraig Hehir","Marguerite Lalor"], M1+":2-5")
q("list",True,"What do I need to buy for Marguerite's mulled wine?",
  "8 bottles of red wine, 1 L orange juice, 2 oranges studded with ~20 cloves, 1 lemon, 6 cinnamon sticks, 4 star anise, 250 g brown sugar, optionally 100 ml brandy (non-alcoholic pot: 3 L red grape juice + 1 L apple juice).",
  ["8 bottles","cinnamon","star anise","250 g"], RC+":4-12,20-21")
q("list",True,"Which extensions does goldmark's GFM option switch on?",
  "extension.GFM enables Table, Strikethrough, Linkify and TaskList (it does not filter disallowed raw HTML).",
  ["Table","Strikethrough","Linkify","TaskList"], "go/goldmark-README.md:175-178")
q("list",True,"What options can I give tinyexec when running a command?",
  "signal (AbortSignal), timeout (ms before the process is killed), persist, stdin, nodeOptions (passed to spawn), throwOnError, nodePath (default true).",
  ["signal","timeout","persist","stdin","nodeOptions","throwOnError","nodePath"], "npm/tinyexec-README.md:58-66")
q("list",True,"Which kinds of values can devalue serialise that JSON.stringify can't?",
  "Cyclical and repeated references; undefined, Infinity, NaN, -0; regular expressions; dates; Map and Set; BigInt; ArrayBuffer and typed arrays; URL and URLSearchParams; Temporal; custom types via replacers/reducers/revivers; promises via stringifyAsync.",
  ["cyclical","Map","BigInt","URLSearchParams"], "npm/devalue-README.md:3-16")
# ================= HOWTO =================
q("howto",True,"I deleted a folder in Nextcloud — how do I get it back from the backup?",
  "1. sudo -u www-data php /var/www/nextcloud/occ maintenance:mode --on  2. sudo restic -r /media/backup/restic --password-file /root/.restic-pass restore latest --target /tmp/restore --include /mnt/data/nextcloud/niamh/files/Choir  3. sudo rsync -a /tmp/restore/mnt/data/nextcloud/niamh/files/Choir/ /mnt/data/nextcloud/niamh/files/Choir/ and sudo chown -R www-data:www-data on it  4. sudo -u www-data php /var/www/nextcloud/occ files:scan niamh  5. maintenance mode --off.",
  ["maintenance:mode --on","restore latest","files:scan","--off"], SV+":24-34")
q("howto",True,"What's the routine for updating the home server each month?",
  "First Sunday of the month: 1. sudo apt update && sudo apt full-upgrade -y  2. pihole -up  3. sudo -u www-data php /var/www/nextcloud/updater/updater.phar (answer Y to maintenance mode)  4. sudo reboot and check Pi-hole, Nextcloud and Jellyfin come back.",
  ["sudo apt update && sudo apt full-upgrade -y","pihole -up","updater.phar","sudo reboot"], SV+":12-16")
q("howto",True,"Websites won't load at home — how do I turn off the ad blocking for a few minutes to test?",
  "`pihole disable 5m` switches Pi-hole blocking off for 5 minutes; `pihole -t` shows live queries, `pihole -w example.com` whitelists a domain; last resort: set the router DNS back to 1.1.1.1.",
  ["pihole disable 5m"], SV+":40-44")
q("howto",True,"How do I get systemd to listen for SSH on port 2222 and start sshd on demand?",
  "systemctl disable --now ssh.service; systemctl start ssh.socket (systemctl enable ssh.socket to make it permanent); mkdir -p /etc/systemd/system/ssh.socket.d; write listen.conf there with [Socket] ListenStream=2222; systemctl daemon-reload.",
  ["ssh.socket","ListenStream=2222","systemctl daemon-reload"], "debian/openssh-client-README.Debian:184-216")
q("howto",True,"How do I compress lots of small files better with zstd using a dictionary?",
  "1. zstd --train FullPathToTrainingSet/* -o dictionaryName  2. zstd -D dictionaryName FILE  3. decompress with zstd -D dictionaryName --decompress FILE.zst.",
  ["zstd --train","zstd -D dictionaryName"], "debian/zstd-README.md:110-122")
q("howto",True,"ps prints some usernames as numbers — how can I make the user column wide enough?",
  "Specify the width directly: ps -o pid,user:19,comm (or rename the column: ps -o pid,user=CumbersomeUserNames -o comm).",
  ["ps -o pid,user:19,comm"], "debian/procps-FAQ:16-29")
# ================= DEFINITION =================
q("definition",True,"What does 'div.' or divisi mean in the choir music?",
  "Divisi: your section splits into two (or more) lines for a bit, e.g. sopranos 1 + 2; Aoife says which line you sing.",
  ["splits"], GL+":6")
q("definition",True,"What's a dep?",
  "A deputy — someone filling in for the regular musician, e.g. a dep accompanist (Orla Fennessy for the Christmas concert).",
  ["deputy"], GL+":24; "+CT+":10")
q("definition",True,"In HTTP, what's the difference between the gzip and the deflate content encoding?",
  "\"gzip\" is the gzip format and \"deflate\" is the zlib format (RFC 1950), though some servers/browsers wrongly use raw deflate (RFC 1951); the bottom line is to use the gzip format for HTTP 1.1 encoding.",
  ["zlib format","gzip format"], "debian/zlib-FAQ:322-336")
q("definition",True,"What does it mean when an XZ Utils version has an odd minor number?",
  "Odd Y in X.Y.ZS marks an unstable release: S is then \"alpha\" or \"beta\"; even Y means a stable release.",
  ["unstable","alpha","beta"], "debian/xz-utils-README:123-149")
q("definition",True,"Where does the name Wails come from?",
  "A play on words, \"Webview on Rails\" (like Rails is to Ruby), which also happens to be a homophone of Wales, the author's country.",
  ["Webview on Rails","Wales"], "go/wails-README.md:203-207")
# ================= ENTITY =================
q("entity",True,"Who do I ring to get into the church?",
  "Jimmy McInerney, the sacristan, has the keys: 087 118 6027.",
  ["Jimmy McInerney","087 118 6027"], EM+":37; "+CT+":12")
q("entity",True,"Who's playing piano for us at the Christmas concert?",
  "Not Hugh Carberry (gig in Galway on the 15th); Orla Fennessy deps as accompanist — confirmed 25/11, €180 for dress rehearsal + concert.",
  ["Orla Fennessy","180"], M2+":13-14; "+PN+":7,14; "+CT+":9-10")
q("entity",True,"Who looks after man-db and how can I reach them?",
  "The maintainer is Colin Watson <cjwatson@debian.org>; bugs go to https://gitlab.com/man-db/man-db/-/issues.",
  ["Colin Watson","cjwatson@debian.org"], "debian/man-db-README.md:306-312")
# ================= OTHER (yes/no + when) =================
q("other",True,"Did the Berlingo pass the NCT, and when is it due again?",
  "Yes — passed on 19/04 (150,420 km, €55) with an advisory that the rear brake discs were worn (replaced 02/10, €310); next NCT 04/2026.",
  ["PASS","04/2026"], VL+":10-11,15")
q("other",True,"Have we paid the church deposit yet? When?",
  "Yes: €100 paid on 22/11 (ref CHOIR-1512), ahead of the 29 Nov deadline; €220 balance is due on the night.",
  ["22/11","100"], PN+":13; "+EX+":14,21; "+EM+":31-32")
q("other",True,"Did deepmerge drop its ES module build, and in which version?",
  "Yes: version 3.0.0 dropped the ES module build; the README says the ESM entry point was dropped because of a Webpack bug and only a CommonJS entry point is exposed.",
  ["3.0.0","Webpack bug"], "npm/deepmerge-changelog.md:55-57; npm/deepmerge-readme.md:66-74")
# ================= UNANSWERABLE =================
q("entity",False,"What's Padraig Hehir's phone number?",
  "Not in the documents: his phone cell in the contact list is empty ('email only pls'); only his e-mail paddy.hehir@gmail.com is given.",
  [], CT+":6",
  "He is in the contact list with other fields filled; neighbours have phone numbers.")
q("entity",False,"Who is the choir's PRO?",
  "Not in the documents: no PRO role is named (roles: chair, secretary, treasurer, musical director, music librarian, fundraising/social, bass section leader); posters were given to Róisín as an action item.",
  [], CT+":2-9; "+M1+":47; "+M2+":29",
  "Many committee roles are listed; someone is doing posters/Facebook.")
q("value",False,"How much is a family ticket for the concert?",
  "Not in the documents: only adult (€15, later €18), concession (€10, later €12) and free for under 12s are given.",
  [], M1+":13; "+M2+":9",
  "Other ticket types have prices, and they changed between meetings.")
q("value",False,"What fee did we agree with Hugh Carberry for playing at the concert?",
  "Not in the documents: his concert fee was 'to be agreed later' and he then couldn't play on 15 Dec; only his €45 per rehearsal and Orla's €180 are given.",
  [], M1+":27-28; "+M2+":14; "+EX+":11",
  "Two accompanist amounts (€45/rehearsal, €180 for the dep) are right there.")
q("value",False,"When is the Berlingo's timing belt due to be changed?",
  "Not in the documents: the log covers fuel, service, NCT, tyres, tax, brakes and insurance, but no timing belt.",
  [], VL,
  "Next service and next NCT dates are given.")
q("other",False,"When is the landlord coming to fix the bathroom window?",
  "Not in the documents: Niamh asked Moriarty about the draughty bathroom window on 18/11 and has had no reply; the letter only covers rent, payment, boiler service and alarms.",
  [], PN+":10-11; "+LL,
  "A landlord visit date (boiler service 21 November) is in the letter.")
q("value",False,"What's the password for the restic backups?",
  "Not in the documents: only where it is kept (/root/.restic-pass, copy in the red notebook) is noted.",
  [], SV+":20",
  "The password file path and the commands using it appear several times.")
q("value",False,"When does my lease on Apt 3 end?",
  "Not in the documents: the landlord's letter mentions the lease only for the deposit; no end date or term is given.",
  [], LL+":40",
  "The letter has several dates (28 October, 21 November, 1 February 2025).")
q("value",False,"When was less version 590 released?",
  "Not in the documents: the less NEWS file lists changes between versions (e.g. 581 and 590) but no release dates.",
  [], "debian/less-NEWS:14",
  "Version 590 is the newest entry; sed and diffutils NEWS do give dates.")
q("value",False,"What's the release date of deepmerge 4.3.1?",
  "Not in the documents: the deepmerge changelog lists versions and changes only, no dates.",
  [], "npm/deepmerge-changelog.md:1",
  "4.3.1 is the first changelog entry; readdirp's changelog has dates.")
q("other",False,"What is the capital of Wales?",
  "Not in the documents: the Wails README only says the name is a homophone of the English name for the author's country (linking to Wales).",
  [], "go/wails-README.md:205-207",
  "Wales is mentioned (as a link) in the name explanation.")
q("value",False,"Which Node.js version does tinyexec need?",
  "Not in the documents: the tinyexec README states no minimum Node.js version.",
  [], "npm/tinyexec-README.md",
  "svelte-check (Node 16 or later) and readdirp (node 14+) state versions; tinyexec mentions node many times.")
q("value",False,"When did diffutils 3.9 come out?",
  "Not in the documents: the diffutils NEWS starts with release 3.8 (2021-08-01).",
  [], "debian/diffutils-NEWS:3",
  "Neighbouring version 3.8 with a date is the first entry.")
q("value",False,"What compression ratio does zstd reach at level 19?",
  "Not in the documents: the benchmark table only lists zstd 1.5.1 at -1 and --fast=1/3/4; higher levels are only described in general terms.",
  [], "debian/zstd-README.md:45-69",
  "A table of zstd ratios at other levels is present.")
q("value",False,"Which easyjson release added the -lower_camel_case flag?",
  "Not in the documents: the easyjson README lists the flag but has no changelog or version history.",
  [], "go/easyjson-README.md:56-57",
  "The flag itself is documented.")
q("value",False,"What is the minimum Go version for goldmark?",
  "Not in the documents: goldmark's README gives none (its benchmarks mention Go1.17 as the test setup only).",
  [], "go/goldmark-README.md:444,456",
  "'Go1.17' appears in the benchmark setup.")
json.dump(Q, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dev", "questions.json"),"w"), indent=1, ensure_ascii=False)
from collections import Counter
print(len(Q), sum(not x["answerable"] for x in Q), Counter(x["kind"] for x in Q))
