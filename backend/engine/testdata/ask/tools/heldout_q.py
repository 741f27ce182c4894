import json, os
Q=[]
def q(kind, answerable, question, expected, must_have, source, trap=""):
    Q.append({"id":"h%02d"%(len(Q)+1),"question":question,"kind":kind,"answerable":answerable,
              "expected":expected,"must_have":must_have,"source":source,"trap":trap})
N="notes/"
OI=N+"Ostrava Tooling invoice OT-24-0583.txt"; OR=N+"Ostrava reminder 1 (email) 2024-04-22.txt"
KI=N+"Kestrel invoice KGD-2024-041 Brennecke.txt"; KC=N+"Kestrel credit note KGD-GS-2024-003.txt"
RC1=N+"Harbourside RC committee minutes 2024-02-13.txt"; RC2=N+"Harbourside RC committee minutes 2024-05-14.txt"
CT=N+"contacts Kestrel.csv"; PN=N+"phone + mail notes Ines.txt"; TM=N+"team meeting 2024-04-08.md"
IT=N+"IT notes office.md"; OB=N+"onboarding checklist + glossary.md"; LQ=N+"Lindqvist quote plants Brennecke.txt"
HO=N+"holidays 2024.txt"; VL=N+"vehicle log 2024.md"; PL=N+"price list maintenance 2024.md"
# ================= VALUE =================
q("value",True,"How much do we owe Ostrava Tooling for invoice OT-24-0583?",
  "The documents disagree: the invoice total is EUR 3,146.40 (net, 0% VAT reverse charge); the reminder e-mail of 22 Apr 2024 asks for EUR 3,164.40. Ines' notes call the reminder figure a typo; EUR 3,146.40 was paid on 25.04.2024.",
  ["3,146.40","3,164.40"], OI+":29-31; "+OR+":9; "+PN+":6-7")
q("value",True,"How much does Dr. Brennecke have to pay for the rear garden job?",
  "Two amounts: invoice KGD-2024-041 (30 Apr 2024) totals EUR 19,732.58 (net 16,582.00 + 19% VAT 3,150.58); after credit note KGD-GS-2024-003 (EUR 1,037.68) the remaining amount due is EUR 18,694.90 (paid 16.05.).",
  ["19,732.58","18,694.90"], KI+":22-24; "+KC+":21-24; "+PN+":13")
q("value",True,"What does the new quad for the rowing club cost?",
  "February minutes: Filippi quote EUR 14,800 incl. riggers, excl. oars (Empacher EUR 16,900); May minutes: dealer updated the Filippi price to EUR 15,350.",
  ["14,800","15,350"], RC1+":9-14; "+RC2+":7-9")
q("value",True,"Which NVIDIA driver version do I need to run Ollama on a GPU?",
  "The docs differ: the hardware page says driver 550 or newer (570 or newer for compute capability 5.0–6.2); the Windows page requires NVIDIA 551.61 or newer drivers.",
  ["550","570","551.61"], "ollama/gpu.mdx:6-7; ollama/windows.mdx:14")
q("value",True,"How much faster than encoding/json is jsonparser?",
  "The README says 'up to 10 times faster' (title/intro and benchmark summary), while the benchmark section says up to 9.8x faster than encoding/json (and 4.6x faster than ffjson).",
  ["10","9.8x"], "go/jsonparser-README.md:2,4,259,292")
q("value",True,"How many members does the rowing club have?",
  "148 members at 1 Jan 2024 (incl. 37 youth) per the February minutes; 153 members per the May minutes (5 new, 0 leavers).",
  ["148","153"], RC1+":17; "+RC2+":17")
q("value",True,"When is the Ostrava invoice due?",
  "OT-24-0583 was issued 11.03.2024 and is due 10.04.2024 (30 days, bank transfer).",
  ["10.04.2024"], OI+":7-10")
q("value",True,"What's the monthly membership fee for students at Harbourside?",
  "EUR 14 per month (adults 28, youth 10, family 55; admission fee 60).",
  ["14"], RC1+":18-19")
q("value",True,"What do we charge per metre for hedge cutting this year?",
  "EUR 7.20 per metre in 2024 (both sides + top, up to 2 m high); it was 6.50 in 2023. Prices net.",
  ["7.20"], PL+":7")
q("value",True,"When was chromem-go 0.7.0 released?",
  "2024-09-01.", ["2024-09-01"], "go/chromem-go-CHANGELOG.md:11")
q("value",True,"Which SQLite version did modernc.org/sqlite v1.49.0 move to?",
  "v1.49.0 (2026-04-17) upgraded to SQLite 3.53.0.", ["3.53.0"], "go/sqlite-CHANGELOG.md:119")
q("value",True,"How fast is a chromem-go query over 100,000 documents?",
  "About 40 ms on a mid-range 2020 Intel laptop CPU (1,000 documents in 0.3 ms).", ["40 ms"], "go/chromem-go-README.md:14")
q("value",True,"Which Go version does xurls require?",
  "Go 1.22 or later.", ["1.22"], "go/xurls-README.md:5")
q("value",True,"How much disk space do I need to install Ollama on Windows?",
  "At least 4GB for the binary install, plus additional space for models.", ["4GB"], "ollama/windows.mdx:29")
q("value",True,"What is the default num_ctx in an Ollama Modelfile?",
  "num_ctx default: 2048 (the Modelfile example sets it to 4096).", ["2048"], "ollama/modelfile.mdx:146")
q("value",True,"What's the default temperature for Ollama models?",
  "0.8 (Modelfile PARAMETER temperature, default 0.8).", ["0.8"], "ollama/modelfile.mdx:149")
q("value",True,"How much memory does bzip2 need to decompress with --small?",
  "With -s/--small any file can be decompressed in 2300k of memory (2.5 bytes per block byte), at about half speed; for compression -s selects a 200k block size.",
  ["2300k"], "debian/bzip2-manual.html:450-462")
q("value",True,"Which bzip2 version does the manual describe?",
  "bzip2 and libbzip2 version 1.0.8, of 13 July 2019.", ["1.0.8"], "debian/bzip2-manual.html:4,95")
q("value",True,"When did findutils 4.9.0 come out?",
  "2022-02-22 (stable).", ["2022-02-22"], "debian/findutils-NEWS:3")
q("value",True,"How much VAT is on the Ostrava Tooling invoice?",
  "None: VAT 0% (reverse charge) — VAT is accounted for by the recipient; total EUR 3,146.40.",
  ["0","reverse charge"], OI+":30-33")
q("value",True,"How many days of annual leave do crew members get?",
  "28 days for crew (office staff 30 days, Azubi 27 days).", ["28"], HO+":14")
q("value",True,"When is Ines on holiday this summer?",
  "29.07.–16.08.2024, 14 days (cover: Jonas does the post, Steuerbüro Mendes payroll).", ["29.07.","16.08."], HO+":9")
q("value",True,"When is the next TÜV for the Ford Transit?",
  "HH-KG 415 (Ford Transit Custom): next TÜV due 03/2025.", ["03/2025"], VL+":12")
q("value",True,"What did the Crafter's TÜV cost?",
  "EUR 139.00 on 29.04. at TÜV Nord Hamburg-Bahrenfeld (HH-KG 412, passed with a minor defect: rear number plate light).",
  ["139.00"], VL+":8")
q("value",True,"How many maintenance contracts do we have?",
  "14 active Pflegeverträge (2 new since March: Fam. Olsen, Hotel Alster Lodge); the 2024 price-increase letters went to all 14 contract customers.",
  ["14"], TM+":9; "+PL+":14")
q("value",True,"Which Bitstream Vera version are the DejaVu fonts based on?",
  "Bitstream Vera fonts version 1.10 (the README is for DejaVu fonts 2.37).", ["1.10"], "debian/fonts-dejavu-README.md:3,11")
q("value",True,"Which MCP specification version does mcp-go implement?",
  "2025-11-25, with backward compatibility for 2025-06-18, 2025-03-26 and 2024-11-05.", ["2025-11-25"], "go/mcp-go-README.md:209")
q("value",True,"How small is fdir?",
  "Less than 2KB gzipped and minified (and it can crawl 1 million files in under 1 second).", ["2KB"], "npm/fdir-README.md:17,23")
q("value",True,"How many dependencies does tinyglobby pull in?",
  "Only two subdependencies (globby has 23, fast-glob 17).", ["two"], "npm/tinyglobby-README.md:11-12")
q("value",True,"What did the boathouse roof repair cost?",
  "EUR 1,140 — Dachdecker Heitmann fixed bay 3 on 2 May.", ["1,140"], RC2+":19")
# ================= LIST =================
q("list",True,"What tools did we order from Ostrava?",
  "Hedge shears 220 mm (12), pointed spades (10), folding pruning saws (15), 3 kg mattocks (4), 90 l wheelbarrows (6), leaf collector/rake sets (8), post hole diggers (3), work gloves size L packs (10), lawn edging irons (6), plus pallet freight.",
  ["Hedge shears","spade","Wheelbarrow","gloves","edging"], OI+":17-27")
q("list",True,"Which plants are on Lindqvist's quote for the Brennecke garden?",
  "Amelanchier lamarckii multi-stem (2), Geranium 'Rozanne' (40), Nepeta 'Walker's Low' (30), Salvia 'Caradonna' (25), Calamagrostis 'Karl Foerster' (20), Echinacea 'Magnus' (15), Hakonechloa macra (12), Alchemilla mollis (10), Anemone 'Honorine Jobert' (8), Allium 'Purple Sensation' bulbs (60); total net 1,812.60 incl. delivery.",
  ["Amelanchier","Geranium","Nepeta","Salvia","Allium"], LQ+":8-22")
q("list",True,"Who was at the rowing club committee meeting in February?",
  "Bastian Kroll (captain), Frauke Timm (treasurer), Ines Halvorsen (secretary), Ole Brandt (youth), Dagmar Fick (boats & equipment); Kai Lorenzen absent (excused).",
  ["Bastian Kroll","Frauke Timm","Ole Brandt","Dagmar Fick"], RC1+":3-5")
q("list",True,"What names are being considered for the new boat?",
  "Shortlist: 'Elbfee', 'Möwe II', 'Kranich' (members' vote at the summer party).", ["Elbfee","Möwe II","Kranich"], RC2+":13")
q("list",True,"Which embedding providers can chromem-go use?",
  "Hosted: OpenAI (default), Azure OpenAI, Cohere, Mistral, Jina, mixedbread.ai; local: Ollama, LocalAI; bring your own EmbeddingFunc. The changelog for v0.7.0 also adds Google/GCP Vertex AI.",
  ["OpenAI","Cohere","Mistral","Ollama","LocalAI"], "go/chromem-go-README.md:141-153; go/chromem-go-CHANGELOG.md:26")
q("list",True,"What instructions can a Modelfile contain?",
  "FROM (required), PARAMETER, TEMPLATE, SYSTEM, LICENSE, MESSAGE, REQUIRES.",
  ["FROM","PARAMETER","TEMPLATE","SYSTEM","MESSAGE"], "ollama/modelfile.mdx:34-42")
q("list",True,"Which NVIDIA cards have compute capability 8.6?",
  "GeForce RTX 30xx: RTX 3090 Ti, 3090, 3080 Ti, 3080, 3070 Ti, 3070, 3060 Ti, 3060, 3050 Ti, 3050; NVIDIA Professional: A40, RTX A6000, A5000, A4000, A3000, A2000, A10, A16, A2.",
  ["RTX 3090","RTX 3060","A40"], "ollama/gpu.mdx:20-21")
q("list",True,"Which DejaVu fonts are still experimental?",
  "DejaVu Sans ExtraLight, Serif Bold Italic, Serif Italic, Sans Condensed (+ Bold, Bold Oblique, Oblique), Serif Condensed (+ Bold, Bold Italic, Italic).",
  ["ExtraLight","Condensed"], "debian/fonts-dejavu-README.md:23-35")
q("list",True,"What projects are the crews working on this spring?",
  "Villa Brennecke (Elbchaussee, Kolonne 1), Kita Sonnenblume in Barmbek (sandpit + willow tunnel, from 22.04., Kolonne 2, EUR 24,300 net), Kleingartenverein Nord hedge job (3 days, Piet, week 16), plus 14 maintenance contracts.",
  ["Villa Brennecke","Kita Sonnenblume","Kleingartenverein Nord"], TM+":5-9")
q("list",True,"What was credited to Dr. Brennecke?",
  "Credit note KGD-GS-2024-003: 1 Amelanchier delivered in the wrong size (EUR 640.00) and 4 crew hours charged twice (EUR 232.00); net 872.00 + VAT 165.68 = EUR 1,037.68.",
  ["640.00","232.00","1,037.68"], KC+":13-21")
q("list",True,"What vehicles does the company have?",
  "HH-KG 412 (VW Crafter, pritsche), HH-KG 415 (Ford Transit Custom) and trailer HH-KG 77.",
  ["HH-KG 412","HH-KG 415","HH-KG 77"], VL+":5-10")
q("list",True,"What values are allowed for Rules-Requires-Root?",
  "'no' (debian/rules binary needs no root, not even fakeroot), 'binary-targets' (always run under (fake)root; the default), or a space-separated list of implementation keywords <namespace>/<cases>.",
  ["no","binary-targets"], "debian/dpkg-rootless-builds.txt:24-48")
q("list",True,"What can an MCP server expose?",
  "Resources (like GET endpoints, load information into the LLM's context), Tools (like POST endpoints, execute code / side effects), Prompts (reusable templates for LLM interactions).",
  ["Resources","Tools","Prompts"], "go/mcp-go-README.md:203-207")
# ================= HOWTO =================
q("howto",True,"How do I set up the office printer on my Linux laptop?",
  "sudo apt install cups printer-driver-brlaser; sudo lpadmin -p Buero -E -v ipp://192.168.20.40/ipp/print -m everywhere; lpoptions -d Buero; test: lp -d Buero /usr/share/cups/data/testprint",
  ["lpadmin -p Buero","ipp://192.168.20.40/ipp/print"], IT+":3-9")
q("howto",True,"How do I connect to the office VPN?",
  "Get your WireGuard config from Jonas, then: sudo apt install wireguard; sudo cp kgd-ines.conf /etc/wireguard/kgd.conf; sudo wg-quick up kgd; check with sudo wg show (latest handshake < 2 min).",
  ["wg-quick up kgd","/etc/wireguard/kgd.conf"], IT+":11-19")
q("howto",True,"How do I install Ollama manually on Linux without the install script?",
  "curl -fsSL https://ollama.com/download/ollama-linux-amd64.tar.zst | sudo tar x -C /usr; then ollama serve and check with ollama -v (remove /usr/lib/ollama first when upgrading).",
  ["ollama-linux-amd64.tar.zst","sudo tar x -C /usr","ollama serve"], "ollama/linux.mdx:13-37")
q("howto",True,"How can I install a particular version of Ollama?",
  "Set OLLAMA_VERSION for the install script: curl -fsSL https://ollama.com/install.sh | OLLAMA_VERSION=0.5.7 sh",
  ["OLLAMA_VERSION"], "ollama/linux.mdx:152-161")
q("howto",True,"How do I completely remove Ollama from a Linux machine?",
  "sudo systemctl stop ollama; sudo systemctl disable ollama; sudo rm /etc/systemd/system/ollama.service; sudo rm -r $(which ollama | tr 'bin' 'lib'); sudo rm $(which ollama); sudo userdel ollama; sudo groupdel ollama; sudo rm -r /usr/share/ollama",
  ["systemctl disable ollama","rm $(which ollama)","userdel ollama"], "ollama/linux.mdx:171-198")
q("howto",True,"How do I look at the Ollama logs on Linux?",
  "journalctl -u ollama --no-pager --follow --pager-end (troubleshooting page); the Linux page gives journalctl -e -u ollama.",
  ["journalctl","-u ollama"], "ollama/troubleshooting.mdx:12-16; ollama/linux.mdx:163-169")
q("howto",True,"How do I install the xurls command line tool?",
  "go install mvdan.cc/xurls/v2/cmd/xurls@latest", ["go install mvdan.cc/xurls/v2/cmd/xurls@latest"], "go/xurls-README.md:28-32")
q("howto",True,"How do I build APT from source?",
  "From a build directory run cmake <path to source> (e.g. cmake . in-tree), then make (-j <count>); or use cmake -G Ninja and then ninja.",
  ["cmake","make","-G Ninja"], "debian/apt-README.md:47-63")
q("howto",True,"How do I add chromem-go to my Go project?",
  "go get github.com/philippgille/chromem-go@latest", ["go get github.com/philippgille/chromem-go@latest"], "go/chromem-go-README.md:188-190")
q("howto",True,"How do I cap the number of concurrently running tasks in an mcp-go server?",
  "Pass server.WithMaxConcurrentTasks(n) to server.NewMCPServer (e.g. WithMaxConcurrentTasks(10)); 0 or unset means no limit; only tasks in 'working' status count.",
  ["WithMaxConcurrentTasks"], "go/mcp-go-README.md:405-417")
q("howto",True,"How do I make Ollama use only some of my NVIDIA GPUs?",
  "Set CUDA_VISIBLE_DEVICES to a comma-separated list of GPU IDs (UUIDs more reliable, find them with nvidia-smi -L); an invalid ID like -1 forces CPU.",
  ["CUDA_VISIBLE_DEVICES","nvidia-smi -L"], "ollama/gpu.mdx:40-46")
q("howto",True,"Ollama falls back to CPU after my Linux laptop wakes from suspend — how do I fix it?",
  "Reload the NVIDIA UVM driver: sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm",
  ["rmmod nvidia_uvm","modprobe nvidia_uvm"], "ollama/gpu.mdx:48-53")
q("howto",True,"How do I install Ollama on Windows into a different folder?",
  "Start the installer with the /DIR flag: OllamaSetup.exe /DIR=\"d:\\some\\location\"",
  ["OllamaSetup.exe /DIR="], "ollama/windows.mdx:31-37")
q("howto",True,"How do I detect a file's MIME type in Go with mimetype?",
  "go get github.com/gabriel-vasile/mimetype; then mimetype.Detect([]byte) / mimetype.DetectReader(io.Reader) / mimetype.DetectFile(\"/path/to/file\"); print mtype.String(), mtype.Extension().",
  ["DetectFile","mimetype.Detect"], "go/mimetype-README.md:36-49")
q("howto",True,"How do I print a big number with thousands separators in Go?",
  "With go-humanize: humanize.Comma(6582491) -> 6,582,491.", ["humanize.Comma"], "go/go-humanize-README.markdown:54-67")
# ================= DEFINITION =================
q("definition",True,"What does Abnahme mean?",
  "Abnahme — the formal hand-over/acceptance of a finished job with the client; from this date the warranty period starts and the final invoice can be sent.",
  ["acceptance","warranty"], OB+":18")
q("definition",True,"What's a Kolonne?",
  "A crew: one crew leader plus 2–4 workers and a van (Kolonne 1 = Malte, Kolonne 2 = Piet).", ["crew leader","van"], OB+":17")
q("definition",True,"What are Regiestunden?",
  "Hours paid by time, not by a fixed price (e.g. extra work the client asks for); write them in the daily report and get them signed.",
  ["paid by time"], OB+":22")
q("definition",True,"What is chromem-go?",
  "An embeddable vector database for Go with a Chroma-like interface and zero third-party dependencies; in-memory with optional persistence.",
  ["vector database","Chroma-like"], "go/chromem-go-README.md:8")
q("definition",True,"What is the Model Context Protocol?",
  "MCP lets you build servers that expose data and functionality to LLM applications in a secure, standardized way — like a web API designed for LLM interactions.",
  ["expose data and functionality","LLM applications"], "go/mcp-go-README.md:201")
q("definition",True,"What is Vite?",
  "Vite (French for 'fast', pronounced /vit/) is a new breed of frontend build tool that significantly improves the frontend development experience; a dev server over native ES modules plus a Rollup-based build command.",
  ["frontend build tool"], "npm/vite-README.md:12-16")
q("definition",True,"What are the DejaVu fonts?",
  "A font family based on the Bitstream Vera fonts, providing a wider range of characters while keeping the original look and feel.",
  ["Bitstream Vera"], "debian/fonts-dejavu-README.md:6-9")
q("definition",True,"What is DPKG_FRONTEND_LOCKED for?",
  "A frontend that already holds the frontend lock (<admindir>/lock-frontend) sets DPKG_FRONTEND_LOCKED when invoking dpkg, to prevent dpkg from acquiring the frontend lock itself.",
  ["DPKG_FRONTEND_LOCKED","lock-frontend"], "debian/dpkg-frontend-api.txt:12-19")
q("definition",True,"What is sade?",
  "Sade is a small but powerful tool for building command-line interface (CLI) applications for Node.js that are fast, responsive, and helpful.",
  ["command-line interface","Node.js"], "npm/sade-readme.md:5")
q("definition",True,"What's an LV?",
  "LV (Leistungsverzeichnis) — the bill of quantities in a tender: a numbered list of all work items with quantities, which we price.",
  ["bill of quantities"], OB+":21")
# ================= ENTITY =================
q("entity",True,"What's Tomáš Dvořák's e-mail address?",
  "tomas.dvorak@ostravatooling.cz — sales rep (DACH) at Ostrava Tooling s.r.o., +420 603 218 774, speaks German.",
  ["tomas.dvorak@ostravatooling.cz"], CT+":8; "+OR+":15-16")
q("entity",True,"Who is Carla Mendes?",
  "Tax advisor at Steuerbüro Mendes — kanzlei@steuer-mendes.de, 040 3890 1150; did the Q1 VAT return.",
  ["Tax advisor","kanzlei@steuer-mendes.de"], CT+":11; "+PN+":11")
q("entity",True,"Who is the rowing club's treasurer and how do I contact them?",
  "Frauke Timm — kasse@harbourside-rc.de, 0160 9912 334.", ["Frauke Timm","kasse@harbourside-rc.de"], CT+":13; "+RC1+":3")
q("entity",True,"What is Jonas Weitkamp's role?",
  "Managing director (Geschäftsführer) of Kestrel Garden Design GmbH; j.weitkamp@kestrel-garden.de, 040 6963 2211; signs all quotes over 5k.",
  ["Managing director","j.weitkamp@kestrel-garden.de"], CT+":2; "+KI+":3")
q("entity",True,"How can I reach Henrik Lindqvist?",
  "henrik@baumschule-lindqvist.de, 04101 55 78 20 — owner of Baumschule Lindqvist, Rellinger Str. 140, Pinneberg; delivers Tue + Fri.",
  ["henrik@baumschule-lindqvist.de"], CT+":10; "+LQ+":1-2")
q("entity",True,"What do we know about Dr. Anke Brennecke?",
  "Private client (Villa Brennecke), Elbchaussee 311, 22609 Hamburg; customer no. 10277; a.brennecke@posteo.de, 040 880 1734; prefers e-mail.",
  ["a.brennecke@posteo.de","10277"], CT+":9; "+KI+":5-10")
# ================= OTHER =================
q("other",True,"Why was modernc.org/sqlite v1.42.0 retracted?",
  "It upgraded to SQLite 3.51.1 but was accidentally broken, so it was retracted the same day (retract directive in go.mod); v1.42.1 reverted to the v1.41.0 state and v1.44.0 carries the working 3.51.1 upgrade.",
  ["accidentally broken","v1.42.1"], "go/sqlite-CHANGELOG.md:222-224")
q("other",True,"What licence is chromem-go under now?",
  "MPL (Mozilla Public License 2.0); v0.7.0 changed the license from AGPL to MPL.",
  ["MPL","AGPL"], "go/chromem-go-CHANGELOG.md:14,32")
# ================= UNANSWERABLE =================
q("value",False,"What's the total of Ostrava invoice OT-24-0538?",
  "No such invoice in the documents; the only Ostrava invoice is OT-24-0583 (EUR 3,146.40).", [], OI,
  "Same digits as the real invoice number, transposed.")
q("value",False,"When was modernc.org/sqlite v1.37.0 released?",
  "Not in the documents: the CHANGELOG goes from v1.36.0 (2025-02-26) straight to v1.38.0 (2025-06-09).", [], "go/sqlite-CHANGELOG.md:246-248",
  "Neighbouring versions with dates are listed.")
q("value",False,"When did chromem-go 0.8.0 come out?",
  "Not in the documents: the newest release listed is v0.7.0 (2024-09-01); 'vNext' is empty.", [], "go/chromem-go-CHANGELOG.md:8-11",
  "Other chromem-go release dates are given.")
q("value",False,"How much is the monthly rowing club fee for seniors?",
  "Not in the documents: fees are given only for adults (28), students (14), youth (10) and family (55).", [], RC1+":18",
  "Neighbouring fee categories are listed.")
q("value",False,"What do we charge for lawn scarifying?",
  "Not in the documents: the maintenance price list covers mowing, hedge cutting, leaf clearance, bed care and green waste only.", [], PL,
  "Lawn mowing prices are listed.")
q("entity",False,"What's Bastian Kroll's phone number?",
  "Not in the documents: the contact list gives only captain@harbourside-rc.de; the phone field is empty.", [], CT+":12",
  "He is in the contact list, other rows have phone numbers.")
q("value",False,"What compute capability does the RTX 2050 have?",
  "Not in the documents: the table lists RTX 2060/2070/2080 (7.5) and RTX 3050 (8.6), but no RTX 2050.", [], "ollama/gpu.mdx:12-36",
  "Very similar card names appear in the table.")
q("value",False,"When was invoice KGD-2024-042 sent and for how much?",
  "No such invoice in the documents; only KGD-2024-041 (and credit note KGD-GS-2024-003).", [], KI,
  "Next number after an existing invoice.")
q("value",False,"What's our credit limit with Ostrava Tooling?",
  "Not in the documents: no credit limit is mentioned; 'credit' appears only as the credit note to Brennecke and Ines' request to credit 59.80 for missing gloves.", [], PN+":6; "+KC,
  "'credit' occurs several times in other senses.")
q("value",False,"How much does Hotel Alster Lodge pay per month for its maintenance contract?",
  "Not in the documents: Hotel Alster Lodge is only named as a new Pflegevertrag; no contract price is given (only the per-service price list).", [], TM+":9; "+PL,
  "The customer and a price list are both present.")
q("entity",False,"What is Leon's surname?",
  "Not in the documents: Leon (Azubi, 1st year) is only ever called by first name.", [], TM+":3,17; "+HO+":10",
  "Leon appears several times.")
q("value",False,"When was Vite 7 released?",
  "Not in the documents: the Vite README gives no versions or release dates.", [], "npm/vite-README.md",
  "The copied package is vite 7.3.8 (only in SOURCES.md, not in the docs).")
q("value",False,"Which Node.js version does fdir need?",
  "Not in the documents: the fdir README only says it uses the NodeJS fs and path modules.", [], "npm/fdir-README.md:21",
  "NodeJS is mentioned repeatedly.")
q("howto",False,"How do I install Ollama on a Mac?",
  "Not in this set: there are Linux and Windows install pages; macOS is only mentioned for log location and Rosetta.", [], "ollama/linux.mdx; ollama/windows.mdx; ollama/troubleshooting.mdx:6-9",
  "Install instructions for two other OSes are present.")
q("value",False,"What is the default for OLLAMA_KEEP_ALIVE?",
  "Not in this set's documents (OLLAMA_KEEP_ALIVE is not mentioned).", [], "-",
  "Many other OLLAMA_* variables are documented.")
q("value",False,"How much does Mutterboden cost per m³?",
  "Not in the documents: Mutterboden is only defined as topsoil; the only per-m³ price is green waste disposal (EUR 42).", [], OB+":23; "+PL+":10",
  "A per-m³ price for something else is listed.")
q("other",False,"How did our women's single scull do at the Spring Regatta?",
  "Not in the documents: results given are men's 4x+ 2nd and women's 2x (double) 1st; no single scull result.", [], RC2+":15",
  "A women's result at the same regatta is given.")
q("entity",False,"What's the e-mail address of Dachdecker Heitmann?",
  "Not in the documents: the roofer is named only in the May minutes, no contact details.", [], RC2+":19",
  "The company is mentioned with an invoice amount.")
q("value",False,"How much do the oars for the new quad cost?",
  "Not in the documents: the Filippi quote is explicitly 'excl. oars' and no oar price is given.", [], RC1+":12",
  "'oars' appears right next to a price.")
q("other",False,"Which name did the members vote for the new boat?",
  "Not in the documents: the name is to be chosen by members' vote at the summer party (6 July); only the shortlist is known.", [], RC2+":13",
  "Shortlist is present; 'plural'/PluralWord appear in go-humanize.")
q("definition",False,"What's the French word for 'slow'?",
  "Not in the documents; only that 'vite' is the French word for 'fast'.", [], "npm/vite-README.md:12",
  "A French-word definition for the opposite concept is present.")
q("value",False,"Which SQLite version ships with modernc.org/sqlite v1.61.0?",
  "Not in the documents: the newest release listed is v1.60.1 (2026-09-29).", [], "go/sqlite-CHANGELOG.md:5",
  "Version numbering continues plausibly from listed releases.")
q("definition",False,"What does the --rsyncable option do in bzip2?",
  "Not in the documents: the bzip2 manual has no --rsyncable option (it only mentions --fast/--best aliases for GNU gzip compatibility).", [], "debian/bzip2-manual.html:478-489",
  "gzip compatibility is discussed in the same section.")
json.dump(Q, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout", "questions.json"),"w"), indent=1, ensure_ascii=False)
from collections import Counter
print(len(Q), sum(not x["answerable"] for x in Q), Counter(x["kind"] for x in Q))
