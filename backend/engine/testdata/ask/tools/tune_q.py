import json, os
Q=[]
def q(kind, answerable, question, expected, must_have, source, trap=""):
    Q.append({"id":"t%02d"%(len(Q)+1),"question":question,"kind":kind,"answerable":answerable,
              "expected":expected,"must_have":must_have,"source":source,"trap":trap})
N="notes/"
# ---- value (incl. disagreements)
q("value",True,"How much do I owe Brackwater for invoice BPS-2024-0117?",
  "The documents disagree: the invoice itself says TOTAL DUE £2,184.60 (subtotal 1,820.50 + VAT 364.10), while the payment reminder of 2 April 2024 states an outstanding balance of £2,148.60 (plus a £40 late fee = £2,188.60). Phone notes say the reminder figure is wrong and £2,184.60 was paid on 4 Apr 2024.",
  ["2,184.60","2,148.60"],
  N+"Brackwater invoice BPS-2024-0117.txt:26; "+N+"Brackwater reminder 2024-04-02.txt:16-20; "+N+"phone notes.txt:7-8")
q("value",True,"What's the budget for the allotment society's new website?",
  "Two values: the AGM (Jan 2024) approved up to £4,200 including the first year of hosting; at the 19 March meeting the budget was revised to £4,500 (extra £300 for the clickable plot map; quote Q-2024-009b total 4,500.00).",
  ["4,200","4,500"],
  N+"Larchmont AGM minutes Jan 2024.txt:26-28; "+N+"2024-03-19 Larchmont mtg 2.md:5-6; "+N+"Quote Q-2024-009 Larchmont website.txt:21,26-29")
q("value",True,"What context window size does Ollama use by default?",
  "The docs disagree: the FAQ says the default context window is 4096 tokens; the Context length page says the default depends on VRAM: <24 GiB -> 4k, 24-48 GiB -> 32k, >=48 GiB -> 256k.",
  ["4096","32k","256k"],
  "ollama/faq.mdx:25; ollama/context-length.mdx:7-12")
q("value",True,"How many people are on the Larchmont waiting list?",
  "Two figures: about 64 names at the 5 March kickoff; 71 names at the 19 March meeting (7 new).",
  ["64","71"],
  N+"2024-03-05 Larchmont kickoff.md:13; "+N+"2024-03-19 Larchmont mtg 2.md:8")
q("value",True,"When is the Larchmont Open Day?",
  "AGM minutes / kickoff: Saturday 8 June (date may move); at the 19 March meeting Gordon said it may move to Saturday 15 June because of the plant sale clash (TBC).",
  ["8 June","15 June"],
  N+"Larchmont AGM minutes Jan 2024.txt:38; "+N+"2024-03-05 Larchmont kickoff.md:12; "+N+"2024-03-19 Larchmont mtg 2.md:10")
q("value",True,"When did fsnotify 1.9.0 come out?",
  "fsnotify 1.9.0 was released 2024-04-04.",
  ["2024-04-04"], "go/fsnotify-CHANGELOG.md:52")
q("value",True,"How much is the yearly rent for a half plot at the allotments?",
  "£38 per year (rents for 2024/25 from 1 April); water charge £12 per plot extra.",
  ["38"], N+"Larchmont AGM minutes Jan 2024.txt:20-25")
q("value",True,"How big is Nano ID once minified and gzipped?",
  "130 bytes (minified and gzipped), no dependencies.",
  ["130 bytes"], "npm/nanoid-README.md:13")
q("value",True,"What Go version do I need for fsnotify?",
  "Go 1.23 or newer.",
  ["1.23"], "go/fsnotify-README.md:4; go/fsnotify-CHANGELOG.md:20")
q("value",True,"What's the amount and due date on invoice Q-1043?",
  "Q-1043 to Fenwick Coffee Roasters, dated 20 Feb 2024: total £3,135.00, due 5 Mar 2024 (14 days).",
  ["3,135.00","5 Mar 2024"], N+"Quillon invoice Q-1043 Fenwick.txt:3-5,17")
q("value",True,"How long does Ollama keep a model in memory after a request by default?",
  "By default models are kept in memory for 5 minutes before being unloaded.",
  ["5 minutes"], "ollama/faq.mdx:291")
q("value",True,"How many requests will the Ollama server queue before it starts rejecting them?",
  "OLLAMA_MAX_QUEUE, default 512; beyond that it responds with a 503 (server overloaded).",
  ["512"], "ollama/faq.mdx:322,336")
q("value",True,"Which port is SSH on for my VPS?",
  "Port 722 (not 22) on the Krystal 'Emerald' VPS.",
  ["722"], N+"server + backup notes.md:3")
q("value",True,"How much does Adobe Creative Cloud cost me?",
  "£56.98 per month (charged 03/01, 03/02, 03/03 in Q1 2024, i.e. £170.94 for the quarter).",
  ["56.98"], N+"expenses Q1 2024.md:5,8,11")
q("value",True,"When was grep 3.8 released?",
  "2022-09-02 (stable).",
  ["2022-09-02"], "debian/grep-NEWS:3")
q("value",True,"Which gzip release added the --rsyncable option?",
  "gzip 1.7 (2016-03-27): 'gzip now accepts the --rsyncable option'.",
  ["1.7"], "debian/gzip-NEWS:107,129")
q("value",True,"In chokidar, how long must a file's size stay constant with awaitWriteFinish before the event fires?",
  "awaitWriteFinish.stabilityThreshold, default 2000 milliseconds (pollInterval default 100 ms).",
  ["2000"], "npm/chokidar-README.md:203-205")
# ---- list
q("list",True,"Which coffee blends did I design labels for?",
  "Kirkgate, Hyde Park and Meanwood Dark (3 x £275.00 on invoice Q-1043).",
  ["Kirkgate","Hyde Park","Meanwood Dark"], N+"Quillon invoice Q-1043 Fenwick.txt:12-13")
q("list",True,"What K/V cache quantization types can I choose in Ollama?",
  "f16 (default, high precision/memory), q8_0 (8-bit, ~1/2 memory of f16), q4_0 (4-bit, ~1/4 memory of f16); set via OLLAMA_KV_CACHE_TYPE.",
  ["f16","q8_0","q4_0"], "ollama/faq.mdx:354-365")
q("list",True,"Who was at the website kickoff meeting with the allotment society?",
  "Maren, Gordon Pell (chair), Priya Natarajan (treasurer), Eileen Farrow (secretary), Tom Bexley; apologies from Derek Ashworth.",
  ["Gordon Pell","Priya Natarajan","Eileen Farrow","Tom Bexley"], N+"2024-03-05 Larchmont kickoff.md:4-5")
q("list",True,"Which file-watching backends does fsnotify support?",
  "Supported: inotify (Linux), kqueue (BSD, macOS), ReadDirectoryChangesW (Windows, excluding Chmod), FEN (illumos). Not yet: fanotify, FSEvents, USN Journals, polling.",
  ["inotify","kqueue","ReadDirectoryChangesW","FEN"], "go/fsnotify-README.md:11-20")
q("list",True,"What were the action items from the 5 March Larchmont meeting?",
  "Maren: send quote + sitemap by 12 Mar; Eileen: find Wix login / ask Derek by next meeting; Priya: confirm invoicing address by 12 Mar; Tom: photos of plots 1-40 by end Apr.",
  ["quote","Wix login","invoicing address","photos"], N+"2024-03-05 Larchmont kickoff.md:16-22")
q("list",True,"Where does Ollama keep downloaded models on each operating system?",
  "macOS ~/.ollama/models; Linux /usr/share/ollama/.ollama/models; Windows C:\\Users\\%username%\\.ollama\\models (override with OLLAMA_MODELS).",
  ["~/.ollama/models","/usr/share/ollama/.ollama/models",".ollama\\models"], "ollama/faq.mdx:233-241")
q("list",True,"What's included in the website quote for the allotment society?",
  "Q-2024-009: design & build WordPress 2,400; plot map 350; waiting-list form with CSV export 450; content migration 300; photo editing 180; contact form + spam protection 250; training 150; first-year hosting 120; total 4,200 (revision 009b: interactive map 650, total 4,500).",
  ["2,400","waiting-list","hosting","4,200"], N+"Quote Q-2024-009 Larchmont website.txt:11-29")
# ---- howto
q("howto",True,"How do I run Ollama in Docker with an NVIDIA GPU?",
  "Install the NVIDIA Container Toolkit, configure Docker (sudo nvidia-ctk runtime configure --runtime=docker; sudo systemctl restart docker), then: docker run -d --gpus=all -v ollama:/root/.ollama -p 11434:11434 --name ollama ollama/ollama",
  ["--gpus=all","nvidia-ctk runtime configure","ollama/ollama"], "ollama/docker.mdx:7-56")
q("howto",True,"How do I restore just one WordPress site from my backups?",
  "1. rsync -az maren@nas.local:/volume1/backup/www/larchmont/ /var/www/larchmont/  2. gunzip < ~/dumps/all-2024-04-01.sql.gz | mysql (restores everything - careful)  3. wp cache flush --path=/var/www/larchmont",
  ["rsync -az","gunzip","wp cache flush"], N+"server + backup notes.md:25-28")
q("howto",True,"How do I set an environment variable like OLLAMA_HOST when Ollama runs as a systemd service?",
  "systemctl edit ollama.service; add under [Service]: Environment=\"OLLAMA_HOST=0.0.0.0:11434\"; save; then systemctl daemon-reload and systemctl restart ollama.",
  ["systemctl edit ollama.service","Environment=","systemctl daemon-reload"], "ollama/faq.mdx:91-111")
q("howto",True,"How do I build jq from a git checkout?",
  "git submodule update --init; autoreconf -fi; ./configure --with-oniguruma=builtin; make -j8; make check (then optionally sudo make install). Needs flex, bison >=3.0, libtool, make, autoconf.",
  ["autoreconf -fi","./configure --with-oniguruma=builtin","make check"], "debian/jq-README:25-52")
q("howto",True,"How can I import a GGUF file into Ollama?",
  "Create a Modelfile with FROM /path/to/file.gguf (for split models FROM /path/to/model-*.gguf), then run ollama create my-model.",
  ["FROM /path/to/file.gguf","ollama create"], "ollama/import.mdx:33-53")
q("howto",True,"How do I install pflag?",
  "go get github.com/spf13/pflag",
  ["go get github.com/spf13/pflag"], "go/pflag-README.md:19-25")
q("howto",True,"How do I set up SSH access to my VPS from a new laptop?",
  "ssh-keygen -t ed25519 -C \"maren@quillon\" then ssh-copy-id -p 722 maren@vps.quillonstudio.co.uk",
  ["ssh-keygen -t ed25519","ssh-copy-id -p 722"], N+"server + backup notes.md:5-9")
# ---- definition
q("definition",True,"What does bleed mean in printing?",
  "Bleed — extra image area (usually 3 mm on each side) that goes beyond the trim line, so there are no white edges after cutting.",
  ["3 mm","trim line"], N+"print glossary for clients.md:4-5")
q("definition",True,"What is rich black?",
  "Black made of all four inks (Brackwater want C40 M30 Y30 K100) instead of only K; looks deeper on big areas; not for small text.",
  ["all four inks","C40 M30 Y30 K100"], N+"print glossary for clients.md:18-19")
q("definition",True,"What is a dpkg trigger?",
  "A dpkg trigger is a facility that allows events caused by one package but of interest to another package to be recorded and aggregated, and processed later by the interested package.",
  ["events caused by one package","processed later"], "debian/dpkg-triggers.txt:7-9")
q("definition",True,"What is jq?",
  "jq is a lightweight and flexible command-line JSON processor.",
  ["command-line JSON processor"], "debian/jq-README:4")
q("definition",True,"What is the sync user for on Debian?",
  "The shell of user sync is /bin/sync, so if its password is easy to guess anyone can sync the system at the console even without an account.",
  ["/bin/sync"], "debian/base-passwd-users-and-groups.txt:105-109")
q("definition",True,"What does context length mean for an Ollama model?",
  "Context length is the maximum number of tokens that the model has access to in memory.",
  ["maximum number of tokens"], "ollama/context-length.mdx:5")
# ---- entity
q("entity",True,"What's Shona Reid's email address?",
  "accounts@brackwaterprint.co.uk (Accounts, Brackwater Print & Signs Ltd., tel 0113 496 0235).",
  ["accounts@brackwaterprint.co.uk"], N+"contacts.md:11; "+N+"Brackwater reminder 2024-04-02.txt:27-29")
q("entity",True,"Who is Priya Natarajan and how do I reach her?",
  "Treasurer of the Larchmont Allotment Society; treasurer@larchmontallotments.org.uk, 07700 900 877.",
  ["Treasurer","treasurer@larchmontallotments.org.uk"], N+"contacts.md:6; "+N+"Larchmont AGM minutes Jan 2024.txt:15,31")
q("entity",True,"Who should Fenwick invoices go to?",
  "Abi Fenwick (co-owner, does their books) — abi@fenwickroasters.com; phone notes: 'Abi pays invoices, send everything to her not Luis'.",
  ["Abi Fenwick","abi@fenwickroasters.com"], N+"contacts.md:13; "+N+"phone notes.txt:5")
q("entity",True,"Who is Hannah Voss?",
  "My accountant, at Voss & Kettle Accountants; hannah@vosskettle.co.uk, 0113 496 0990.",
  ["accountant","Voss & Kettle","hannah@vosskettle.co.uk"], N+"contacts.md:14")
q("other",True,"Did I already pay Brackwater, and when?",
  "Yes: paid BPS-2024-0117, £2,184.60 by BACS on 4 Apr 2024.",
  ["4 Apr","2,184.60"], N+"phone notes.txt:8; "+N+"todo april.txt:2")
# ---- unanswerable
q("value",False,"How much is the rent for a quarter plot at Larchmont?",
  "Not in the documents: rents are listed only for full plot (£68), half plot (£38) and raised bed (£20).",
  [], N+"Larchmont AGM minutes Jan 2024.txt:20-25",
  "Neighbouring values for full/half plots and raised beds are right there.")
q("value",False,"When was go-yaml v1.19.2 released?",
  "Not in the documents: the goccy/go-yaml CHANGELOG stops at 1.11.2 (2023-09-15); 1.19.2 is not mentioned.",
  [], "go/go-yaml-CHANGELOG.md:1",
  "Other go-yaml release dates are listed; the copied module is v1.19.2 but the docs never say so.")
q("value",False,"What's the total on Brackwater invoice BPS-2024-0118?",
  "No such invoice in the documents; only BPS-2024-0117 exists.",
  [], N+"Brackwater invoice BPS-2024-0117.txt",
  "Invoice number differs by one digit from an existing invoice.")
q("entity",False,"What's Derek Ashworth's phone number?",
  "Not in the documents: the contact list gives only his e-mail (derek.ashworth@outlook.com); the phone column is empty.",
  [], N+"contacts.md:8",
  "Derek is in the contact list with other fields filled; other people have phone numbers.")
q("value",False,"When was grep 3.9 released?",
  "Not in the documents: grep NEWS starts at 3.8 (2022-09-02).",
  [], "debian/grep-NEWS:3",
  "Neighbouring version 3.8 with a date is the first entry.")
q("other",False,"What is the capital of Turkey?",
  "Not in the documents; they only mention 'capital I in a Turkish UTF-8 locale' and the Turkish I-with-dot in grep NEWS.",
  [], "debian/grep-NEWS:746-749",
  "Both 'capital' and 'Turkish' occur together in grep NEWS, but about letters, not cities.")
q("value",False,"What interest rate does Brackwater charge on late payments?",
  "Not in the documents: the invoice only says they 'reserve the right to charge interest and compensation' under the 1998 Act; no rate is given (the reminder adds a fixed £40 compensation charge, not an interest rate).",
  [], N+"Brackwater invoice BPS-2024-0117.txt:30-31; "+N+"Brackwater reminder 2024-04-02.txt:18-19",
  "'interest' appears, plus a £40 fixed charge; dpkg triggers use 'interested' a lot.")
q("value",False,"How much was Quillon invoice Q-1047?",
  "No such invoice; the documents only contain Q-1043 (£3,135.00) and Q-1051 (£600.00).",
  [], N+"Quillon invoice Q-1043 Fenwick.txt; "+N+"Quillon invoice Q-1051 Fenwick.txt",
  "Number lies between two existing Quillon invoice numbers.")
q("value",False,"What is Quillon Studio's hourly rate?",
  "Not in the documents: the only hourly rate is Brackwater's artwork rate (£48/h) on their invoice; Quillon's own rate is never given.",
  [], N+"Brackwater invoice BPS-2024-0117.txt:21",
  "A £48/h rate appears, but it is the printer's, not Quillon's.")
q("value",False,"When is the Larchmont plant sale in 2025?",
  "Not in the documents: only the 2024 plant sale (Sat 11 May) is mentioned.",
  [], N+"Larchmont AGM minutes Jan 2024.txt:37",
  "A plant-sale date for another year is given.")
q("value",False,"What minimum Node.js version does Nano ID need?",
  "Not in the documents: the nanoid README only says it supports modern browsers, IE with Babel, Node.js and React Native, with no version.",
  [], "npm/nanoid-README.md:27",
  "picocolors (Node v6+) and chokidar (v14+) state minimum Node versions in neighbouring READMEs.")
q("entity",False,"What is the e-mail address of Fenwick Coffee's secretary?",
  "Not in the documents: Fenwick contacts are Luis Ferreira (owner/head roaster) and Abi Fenwick (co-owner, books); the only secretary is Eileen Farrow of the allotment society.",
  [], N+"contacts.md:5-13",
  "A 'Secretary' role and many Fenwick e-mails exist in the contact list.")
json.dump(Q, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tune", "questions.json"),"w"), indent=1, ensure_ascii=False)
from collections import Counter
print(len(Q), sum(not x["answerable"] for x in Q), Counter(x["kind"] for x in Q))
