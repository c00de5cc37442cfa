// Over 500 lines on purpose: it is data (one group of phrases per reason code), read as one table.
// The phrase lexicon of the scorer: which words count as evidence for which reason, at what weight.
// Phrases are matched on folded words (lower case, no diacritics: "kündigen" matches "kundigen"),
// never across a clause boundary. Syntax: phrases separated by "|"; "{a,b,}" expands to
// alternatives (an empty alternative drops the word); a final "$" means "and nothing after it in
// the clause". Write apostrophes as ’ (the tokenizer reads ' and ’ alike). Keep phrases specific:
// ordinary business mail must not trip them (npm run eval shows the effect on real e-mail). After an edit, `npm run
// lexicon:index` rewrites the first-word index the engine loads (lexicon-index.json); until then the tests and every script
// that loads the engine (bin/lexicon-index-check.ts) refuse to run.
import type { Source } from '../signal';
import { ALERT_CONDITIONS, MACHINES, OPS, SYSTEMS, type LexGroup } from './lexicon-operations';

export const IGNORE = 'IGNORE';

const TICKETS: readonly Source[] = ['task', 'support_message'];

export const LEXICON: readonly LexGroup[] = [
  // ---- neutral phrases: consume words that would otherwise be misread --------------------------
  {
    code: IGNORE,
    weight: 0,
    phrases:
      'bug fix|bug fixes|bugfix|bugfixes|fixed bugs|fixed a bug|fixed several bugs|error free|trouble free|problem solving|' +
      'help center|help centre|help desk|helpdesk|support team|customer support|technical support|support center|' +
      'down payment|slow down|slowed down|break down|breakdown|turned down|turn down|shut down the meeting|' +
      'cancel anytime|cancel at any time|you can cancel|cancel your subscription at any time|' +
      'no problem|not a problem|no problems|no worries|how to unsubscribe|' +
      'critical path|critical mass|security deposit|securities|social security|job security|' +
      'price increase|prize draw rules|ticket price|tickets|movie tickets|' +
      'legal disclaimer|this message is confidential|privileged and confidential|attorney client privilege|attorney client privileged|' +
      'privileged|intended recipient|' +
      'in case of emergency|emergency contact|emergency contacts|third party|third parties|other party|' +
      'nobel prize|prize winner|prize winning|award winner|award winning|' +
      'cancellation policy|free cancellation|cancellation fee|flight cancellation|meeting cancellation|' +
      'cancel the meeting|cancel our meeting|cancel the call|cancel my flight|cancel the trip|' +
      // a count of none is no failure ("with 0 errors", "0 errors, 0 warnings"); a bare "0" only where it cannot be a
      // version's last digit ("v1.0 failed", "Android 14.0 errors out", "CVSS 10.0 critical")
      'zero {error,errors,failure,failures,failed,fails,warning,warnings,critical,high,issues,problems,vulnerabilities}|' +
      '0 {warnings,failures,vulnerabilities,issues,problems}|with 0 {error,errors,failed}|0 errors$|0 error$|' +
      '0 failed {jobs,tests,checks,builds,runs}|' +
      // thanks for help given is no request for help; Spanish "todo" is "all", not a to-do
      '{danke,vielen dank,herzlichen dank} {fur,fur ihre,fur deine,fur eure,fur die} {schnelle,} hilfe|' +
      'merci {beaucoup,} {pour,de} {votre,ton,l’} aide|' +
      'por todo|todo bien|todo el|todo lo|de todo|con todo|sobre todo|todo esta|todo listo|funciona todo|todo funciona',
  },
  {
    // Alert rule descriptions say when an alert resolves; that is no recovery.
    code: IGNORE,
    weight: 0,
    sources: OPS,
    phrases:
      'until resolved|until it is resolved|until it’s resolved|once resolved|once it is resolved|when resolved|if resolved|' +
      'to be resolved|will be resolved|will resolve|should be resolved|must be resolved|be resolved|is resolved when|resolves when|' +
      'auto resolve|resolve timeout|be recovered|cannot be recovered|until cleared|is cleared when|will be cleared|' +
      'back to normal when|back to normal once|planned downtime|scheduled downtime|maintenance downtime|will be down for maintenance',
  },

  // ---- incidents ------------------------------------------------------------------------------
  {
    code: 'OUTAGE_LANGUAGE',
    weight: 45,
    phrases:
      `outage|outages|major outage|service outage|system outage|network outage|partial outage|full outage|downtime|unplanned downtime|` +
      `down for {everyone,everybody,all users,all customers,all of us,us,hours,the whole team}|totally down|completely down|` +
      `service unavailable|503 service unavailable|502 bad gateway|bad gateway|gateway timeout|` +
      `{nobody,no one,none of us,none of our users,none of our customers} can {log in,login,sign in,access,use,connect}|` +
      `data loss|lost {all,all of} {our,my,the,,} data|lost all data|data {was,has been,got,were} {deleted,wiped,lost,corrupted}|database {corrupted,corruption}|` +
      // German, French, Spanish
      `ausfall|ausfalle|storung|systemausfall|serverausfall|totalausfall|ausgefallen|nicht erreichbar|` +
      `panne|en panne|pannes|hors service|caida del servicio|fuera de servicio|servicio no disponible`,
  },
  {
    code: 'OUTAGE_LANGUAGE',
    weight: 45,
    near: SYSTEMS,
    phrases:
      'down|unreachable|unavailable|inaccessible|offline|not responding|not loading|completely broken|dead|' +
      'indisponible|caido|caida|no esta disponible|no disponible',
  },
  {
    // German, French and Spanish "not responding", "unreachable": after a machine, not a help desk.
    code: 'OUTAGE_LANGUAGE',
    weight: 45,
    near: MACHINES,
    phrases:
      'antwortet nicht|antwortet nicht mehr|reagiert nicht|reagiert nicht mehr|nicht verfugbar|ist offline|' +
      'ne repond pas|ne repond plus|injoignable|hors ligne|indisponible|est inaccessible|' +
      'no responde|ya no responde|inaccesible|fuera de linea|esta caida|esta caido|se ha caido|sigue caida|sigue caido',
  },
  {
    code: 'DEGRADATION_LANGUAGE',
    weight: 20,
    phrases:
      `degraded|degradation|performance degradation|degraded performance|slowness|high latency|latency spike|latency spikes|` +
      `{very,extremely,really,super} slow|slow {performance,response,responses,response times,loading}|loading slowly|loads slowly|` +
      `timeouts|timing out|times out|timed out|intermittent {errors,failures,outage,outages,issues}|` +
      `elevated {error rate,error rates,errors,latency}|500 errors|500 error|5xx errors|error 500|http 500|internal server error|` +
      `{requests,jobs,builds,deployments,deploys,payments,webhooks,emails,uploads,syncs,transactions} {are,keep,keeps,} failing|` +
      `{request,job,build,deployment,deploy,payment,webhook,email,upload,sync,transaction,checkout,login} {is,keeps,} failing|` +
      `packet loss|sehr langsam|zeituberschreitung|tres lent|lenteur|muy lento|lentitud|` +
      `{hohe,erhohte} latenz|latence {elevee,tres elevee}|{alta,elevada} latencia|latencia {alta,elevada}|` +
      `delai d’attente {depasse,expire}|tiempo de espera {agotado,excedido}`,
  },
  {
    code: 'DEGRADATION_LANGUAGE',
    weight: 20,
    near: SYSTEMS,
    phrases: 'slow|sluggish|lagging|langsam|lent|lento',
  },
  ...ALERT_CONDITIONS,
  {
    code: 'INTERNAL_ALERT',
    weight: 15,
    sources: ['internal'],
    phrases:
      'alert|alerts|alarm|alarms|firing|triggered|threshold {exceeded,breached,crossed}|health check {failed,failing}|' +
      'healthcheck failed|healthcheck failing|monitor {down,failed,alert}|pagerduty|paged|on call|oncall|anomaly detected|' +
      '{job,backup,cron,pipeline,deploy,deployment,build,migration,replication,certificate renewal} {failed,failing}|' +
      'failed {job,backup,deploy,deployment,build,migration}|certificate {expired,expires,expiring}|out of memory|oom|' +
      'disk full|no space left|crash loop|crashloopbackoff|restarting|unhealthy|error budget',
  },
  {
    code: 'ALERT_RESOLVED',
    weight: -20,
    sources: ['internal'],
    phrases:
      'resolved|recovered|back to normal|is back up|back online|auto resolved|autoresolved|status ok|ok again|alert cleared|cleared|' +
      'healthy again|has recovered|no longer firing|' +
      'behoben|wiederhergestellt|wieder {erreichbar,online,verfugbar}|resolu|retabli|de nouveau {disponible,accessible}|' +
      'resuelto|restablecido|recuperado|de nuevo disponible',
  },
  {
    code: 'IMPACT_SCOPE',
    weight: 10,
    phrases:
      'all users|all {our,of our,the} {customers,users,clients,stores,regions}|all customers|every customer|every user|everyone|everybody|' +
      'entire {company,team,site,platform,organization,organisation,region}|whole {company,team,site,platform}|company wide|' +
      'production|in prod|prod|customers are affected|customers affected|users affected|users are affected|multiple customers|' +
      'many customers|many users|revenue impact|losing money|losing revenue|losing sales|' +
      'alle nutzer|alle kunden|tous les utilisateurs|tous nos clients|todos los usuarios|todos los clientes|' +
      'produktion|produktivsystem|en production|environnement de production|produccion|entorno de produccion',
  },

  // ---- security -------------------------------------------------------------------------------
  {
    code: 'SECURITY_LANGUAGE',
    weight: 45,
    phrases:
      'security breach|data breach|breached|{we,we have,we’ve,i have,i’ve,i,our account,my account} {were,been,got,was,has been,} hacked|' +
      'hacked|hacker|hackers|phishing|spear phishing|malware|ransomware|trojan|keylogger|spyware|' +
      'vulnerability|vulnerabilities|security vulnerability|security flaw|security hole|security incident|' +
      'zero day|0 day|cve|sql injection|xss|cross site scripting|remote code execution|privilege escalation|' +
      'unauthorized access|unauthorised access|account {was,has been,is,got,} compromised|' +
      'compromised {account,accounts,credentials,password,passwords,server,servers,key,keys,machine,laptop}|' +
      '{credentials,password,passwords,api key,api keys,secret,secrets,token,tokens,access key,access keys,private key,ssh key} ' +
      '{were,was,have been,has been,got,are,is,} {leaked,exposed,stolen,compromised}|' +
      '{leaked,exposed} {staging,production,prod,live,aws,github,} {credentials,password,passwords,api key,api keys,' +
      'access key,access keys,secret key,secrets,token,tokens}|' +
      'leaked {keys,data,database,customer data}|' +
      'credential stuffing|ddos|ddos attack|dos attack|denial of service|data leak|data exposure|' +
      'exposed {data,database,bucket,s3 bucket,credentials}|identity theft|account takeover|' +
      'sicherheitslucke|datenleck|sicherheitsvorfall|gehackt|faille de securite|fuite de donnees|pirate|piratage|' +
      'violation de donnees|brecha de seguridad|vulnerabilidad|filtracion de datos|hackeado|hackeada',
  },
  {
    code: 'SECURITY_LANGUAGE',
    weight: 30,
    phrases:
      'suspicious {login,logins,activity,sign in,sign ins,email,emails,link}|security alert|security issue|security concern|' +
      'virus|brute force|unusual sign in|unusual login|new sign in from|2fa bypass|mfa bypass|impersonation|spoofed|spoofing',
  },

  // ---- legal and compliance -------------------------------------------------------------------
  {
    code: 'LEGAL_THREAT',
    weight: 40,
    phrases:
      'lawsuit|lawsuits|sue you|sue your|sue them|sue the company|will sue|going to sue|we will be suing|suing you|' +
      '{take,taking,pursue,initiate,consider} legal action|legal action|legal proceedings|legal steps|' +
      '{my,our} {lawyer,lawyers,attorney,attorneys,solicitor,solicitors,legal counsel,legal team}|' +
      'cease and desist|subpoena|subpoenas|subpoenaed|court order|class action|small claims|' +
      'file a complaint with|report you to|consumer protection|ombudsman|' +
      'anwalt|rechtsanwalt|klage|verklagen|rechtliche schritte|abmahnung|' +
      'avocat|avocats|poursuites|poursuite judiciaire|mise en demeure|action en justice|' +
      'abogado|abogados|demanda judicial|demandar|acciones legales|accion legal',
  },
  {
    code: 'LEGAL_LANGUAGE',
    weight: 25,
    phrases:
      'litigation|attorney|attorneys|lawyer|lawyers|legal department|legal counsel|breach of contract|contract dispute|' +
      'indemnification claim|liability claim|settlement offer|court|tribunal|gericht|juzgado',
  },
  {
    code: 'COMPLIANCE_REQUEST',
    weight: 25,
    phrases:
      'gdpr|dsgvo|rgpd|ccpa|hipaa|data subject {request,access request,rights}|dsar|subject access request|' +
      'right to be forgotten|right to erasure|erasure request|{delete,erase,remove} {all,} {my,our} {personal,} data|' +
      'data deletion request|data protection {officer,authority,request,complaint}|privacy request|privacy complaint|' +
      'data processing agreement|soc 2|soc2|iso 27001|pci dss|compliance {audit,violation,issue,requirement,requirements}|' +
      'regulatory {complaint,inquiry,investigation}|datenschutz|datenauskunft|auskunftsersuchen|loschung meiner daten|' +
      'protection des donnees|suppression de mes donnees|supprimer mes donnees|proteccion de datos|derecho al olvido',
  },

  // ---- billing --------------------------------------------------------------------------------
  {
    code: 'PAYMENT_FAILURE',
    weight: 30,
    phrases:
      'payment failed|payment has failed|payment {was,has been,} declined|failed payment|failed payments|' +
      'card {was,has been,} declined|declined card|card declined|charged twice|double charged|double charge|' +
      'charged {me,us} twice|overcharged|over charged|{incorrect,wrong,unexpected,unauthorized,unauthorised,duplicate} charge|' +
      '{incorrect,wrong,unexpected,unauthorized,unauthorised,duplicate} charges|billing {error,mistake,issue,problem}|' +
      'invoice {is,} {wrong,incorrect}|{wrong,incorrect} invoice|unpaid invoice|overdue invoice|invoice {is,} overdue|' +
      'past due|outstanding balance|payment overdue|final notice|dunning|chargeback|disputed charge|' +
      '{subscription,renewal} payment failed|{could not,couldn’t,unable to} charge|insufficient funds|' +
      'zahlung fehlgeschlagen|zahlung abgelehnt|doppelt abgebucht|falsche rechnung|mahnung|zahlungserinnerung|' +
      'paiement echoue|paiement refuse|echec du paiement|preleve deux fois|facture erronee|facture incorrecte|' +
      'pago rechazado|pago fallido|cobro duplicado|cobrado dos veces|factura incorrecta',
  },
  {
    code: 'BILLING_QUESTION',
    weight: 15,
    phrases:
      'invoice|invoices|billing|receipt|vat|tax invoice|payment method|update {my,our} {card,payment method,billing details}|' +
      'billing address|proforma|credit note|rechnung|abrechnung|facture|facturation|factura|facturacion',
  },

  // ---- churn ----------------------------------------------------------------------------------
  {
    code: 'CHURN_LANGUAGE',
    weight: 35,
    phrases:
      'cancel {my,our,the} {subscription,account,plan,contract,membership,service,license,licenses,seats}|' +
      '{want,wish,would like,like,going,plan,planning,need,decided,have decided,intend} to cancel ' +
      '{my,our,the,this,your} {subscription,account,plan,contract,membership,service,license,licenses,seats}|' +
      '{want,wish,would like,like,going,plan,planning,decided,have decided,intend} to cancel $|' +
      'cancellation request|request cancellation|confirm {the,my,our} cancellation|terminate {my,our,the} {contract,subscription,account,agreement}|termination notice|' +
      '{close,delete} {my,our} account|not {going to,} renew|won’t renew|will not renew|do not renew|don’t renew|' +
      'not renewing|non renewal|{switch,switching,move,moving,migrate,migrating} to {a,another} {competitor,provider,vendor,tool,service,solution}|' +
      '{looking for,look for,considering,evaluating} alternatives|downgrade {my,our}|leaving {your,the} {service,platform}|' +
      'subscription {cancelled,canceled}|churned|renewal at risk|at risk of churning|detractor|' +
      'churn risk|downgrade requested|requested a downgrade|subscription downgraded|' +
      'kundigen|kundigung|kundige|gekundigt|resilier|resiliation|resilie|annuler {mon,notre} {abonnement,contrat,compte}|' +
      'cancelar|quiero cancelar|darme de baja|dar de baja|baja del servicio',
  },
  {
    // A CRM's churn signals: in mail "your account is at risk" is a security or billing warning, and a usage that
    // dropped is a monitoring alert's metric.
    code: 'CHURN_LANGUAGE',
    weight: 35,
    sources: ['crm_event'],
    phrases: '{customer,account} {is,} at risk|{usage,health score} {has,} {dropped,declined,fell}',
  },
  { code: 'CHURN_LANGUAGE', weight: 20, phrases: 'cancellation|cancel my|cancel our' },
  {
    code: 'REFUND_DEMAND',
    weight: 25,
    phrases:
      '{want,need,demand,request,requesting,like,get} {a,my,our,the,} {full,} refund|refund {me,us,my,our}|' +
      'money back|refund please|i want a refund|issue a refund|refund requested|' +
      '{asked,asks,asking} for a {full,} refund|' +
      'remboursement|rembourser|ruckerstattung|geld zuruck|reembolso|devolucion del dinero',
  },

  // ---- sales ----------------------------------------------------------------------------------
  {
    code: 'SALES_INTEREST',
    weight: 25,
    phrases:
      'request a quote|requesting a quote|quote for|price quote|quotation|request for quote|request for quotation|rfq|rfp|' +
      'request for proposal|{book,schedule,request,arrange,see} a demo|demo request|demo requested|product demo|' +
      'enterprise {plan,pricing,license,licence,tier}|volume discount|{additional,more,extra} {seats,licenses,licences,users}|' +
      '{buy,purchase,purchasing,buying} {licenses,licences,seats,your product,your software,a subscription}|' +
      'interested in {your,buying,purchasing,upgrading}|talk to sales|speak to sales|contact sales|' +
      'how much {does,would,is,do} {it,this,your}|cost for {seats,users,licenses}|pricing for|' +
      'upgrade {to,our,my} {plan,account,subscription,enterprise,pro,business}|upsell|trial started|trial ending|' +
      '{like,want,would like,looking,planning,plan} to upgrade|annual plan|annual plans|annual billing|discount for|' +
      'opportunity created|deal created|new lead|lead created|quote requested|upgrade requested|' +
      'preisanfrage|kostenvoranschlag|angebot anfordern|devis|demande de prix|cotizacion|presupuesto|demostracion|' +
      '{kosten,preis,preise} {fur,pro} {benutzer,nutzer,lizenzen,lizenz,arbeitsplatze}|' +
      '{cout,prix,tarif} {pour,par} {utilisateur,utilisateurs,licence,licences,poste,postes}|' +
      '{costo,coste,precio} {para,por} {usuario,usuarios,licencia,licencias}',
  },
  {
    // "Preis für 10 Benutzer", "prix pour 10 utilisateurs": a price word among the 4 words before the seat word.
    code: 'SALES_INTEREST',
    weight: 25,
    near: 'preis|preise|kosten|prix|tarif|tarifs|cout|precio|precios|costo|coste',
    phrases: 'benutzer|nutzer|lizenzen|utilisateurs|licences|usuarios|licencias',
  },
  {
    code: 'SALES_INTEREST',
    weight: 10,
    phrases:
      'pricing|price list|quote|demo|seats|licenses|trial|purchase order|upgrade|discount|tarif|tarifs|precios|preise|angebot',
  },

  // ---- ordinary support -----------------------------------------------------------------------
  {
    code: 'SUPPORT_REQUEST',
    weight: 20,
    phrases:
      'not working|isn’t working|is not working|doesn’t work|does not work|don’t work|stopped working|no longer works|' +
      'nothing {is,} working|nothing works|' +
      'won’t {load,start,open,work,sync,save,send,connect}|' +
      '{can’t,cannot,can not,unable to,could not,couldn’t} {log in,login,sign in,log on,access,connect,open,upload,download,reset,' +
      'save,send,see,export,import,pay,install,update,sync,complete,find}|' +
      'error message|{getting,get,got,see,seeing,receive,receiving} {an,this,the,} error|error code|keeps crashing|crashes|crashed|' +
      'crashing|bug|bugs|glitch|broken|is broken|locked out|forgot my password|reset my password|password reset not|' +
      '{hasn’t,has not,hasnt,didn’t,did not,never,haven’t,have not} {arrived,been delivered,shipped,received}|' +
      'not {arrived,delivered,received} yet|where is my {order,package,parcel,refund,invoice}|still waiting for|' +
      'funktioniert nicht|geht nicht|fehlermeldung|kann mich nicht anmelden|ne fonctionne pas|ne marche pas|' +
      'impossible de {me connecter,se connecter}|no funciona|no puedo {entrar,acceder,iniciar sesion}|' +
      // an order not arrived, a login that fails (German, French, Spanish)
      '{noch nicht,immer noch nicht,nie} {angekommen,eingetroffen,geliefert,zugestellt}|wo ist {meine,unsere} {bestellung,lieferung}|' +
      '{pas encore,toujours pas,jamais} {arrive,arrivee,arrives,arrivees,livre,livree,recu,recue}|' +
      'ou est {ma,notre} {commande,livraison}|' +
      '{no ha,no han,no me ha,no nos ha,todavia no ha,aun no ha,nunca} {llegado,sido entregado,sido entregada}|' +
      'donde esta {mi,nuestro} pedido|' +
      'kann mich nicht {mehr,} {einloggen,anmelden}|{login,anmeldung} {nicht moglich,schlagt fehl}|' +
      '{je ne peux pas,je n’arrive pas a,je ne parviens pas a,nous ne pouvons pas,on n’arrive pas a} ' +
      '{me connecter,nous connecter,se connecter,acceder a mon compte}|' +
      'no puedo {conectarme,ingresar,acceder a mi cuenta}|no podemos {entrar,acceder,iniciar sesion}',
  },
  {
    code: 'SUPPORT_REQUEST',
    weight: 15,
    phrases:
      'problem with|issue with|having {trouble,issues,problems}|trouble with|need help|please help|help me|' +
      '{can,could} you {help,assist}|support ticket|besoin d’aide|ayuda|' +
      '{my,our} {account,payment,card,password,data}|contact me|reach me',
  },
  {
    // A customer's own order, or a call-back request: a person who expects an answer.
    code: 'SUPPORT_REQUEST',
    weight: 20,
    phrases: '{my,our} {order,orders,subscription,invoice,booking,delivery,package,parcel}|call me back|get back to me',
  },
  {
    code: 'SUPPORT_REQUEST',
    weight: 15,
    phrases: 'how do i|how can i|how do we|how can we|is it possible to|question about|quick question|hilfe|aide',
  },
  {
    code: 'SUPPORT_REQUEST',
    weight: 10,
    phrases: 'fehler|probleme|problem|problems|erreur|error|errors|problema|issue',
  },

  // ---- bug reports (tracker tickets and chat) -------------------------------------------------------
  {
    code: 'BUG_REPORT',
    weight: 15,
    sources: TICKETS,
    phrases:
      'exception|exceptions|stack trace|stacktrace|traceback|null pointer|nullpointerexception|null pointer exception|npe|' +
      'null reference|undefined is not|is undefined|assertion failed|assertion error|' +
      'steps to reproduce|to reproduce|reproducible|expected {result,results,behavior,behaviour,output}|' +
      'actual {result,results,behavior,behaviour,output}|regression|regressed|does nothing|has no effect|nothing happens|' +
      '{wrong,incorrect,invalid,unexpected} {result,results,value,values,total,totals,output,data,sum,number,date,dates,week,order}|' +
      'is wrong|are wrong|is incorrect|are incorrect|shows the wrong|returns the wrong|throws|thrown|' +
      'fails|fail to|fails to|failed to|failure|sent twice|shown twice|duplicated|not saved|is not saved|gets lost|is lost|' +
      'does not {find,show,load,save,open,display,update,match,return}|doesn’t {find,show,load,save,open,display,update,match,return}',
  },
  {
    code: 'SEVERE_DEFECT',
    weight: 20,
    sources: TICKETS,
    phrases:
      'crash|crashes|crashed|crashing|hang|hangs|hanging|hung|freeze|freezes|frozen|froze|unresponsive|blocker|blocking|' +
      'unusable|data loss|loses data|lost data|corrupts|corrupted|corruption|cannot start|can’t start|fails to start|' +
      'won’t start|does not start|doesn’t start|refuses to start|deadlock|infinite loop|memory leak|segfault|' +
      'for every {order,user,customer,request}|for all users|nobody can',
  },
  {
    code: 'MINOR_ISSUE',
    weight: -10,
    sources: TICKETS,
    phrases:
      'typo|typos|misspelled|misspelling|spelling|cosmetic|minor|trivial|misaligned|alignment|padding|tooltip|wording|' +
      'feature request|enhancement|nice to have|would be nice|would be great|it would be nice|suggestion|' +
      'refactor|refactoring|clean up|cleanup|rename|documentation|document the|docs|readme|no behaviour change|' +
      'no behavior change|improve|improvement',
  },

  // ---- tasks ----------------------------------------------------------------------------------
  {
    code: 'DEADLINE_LANGUAGE',
    weight: 10,
    phrases:
      'deadline|due {today,tomorrow,by,on,date}|by end of {day,week,today}|by eod|eod|by cob|by tomorrow|' +
      'action required|action needed|action item|action items|todo|to do list|please approve|approval needed|' +
      'needs your approval|sign off|frist|bis morgen|date limite|echeance|fecha limite|plazo',
  },

  // ---- closure and feedback -------------------------------------------------------------------
  {
    code: 'GRATITUDE_CLOSURE',
    weight: -20,
    sources: ['email', 'task', 'crm_event', 'support_message'],
    phrases:
      'that fixed it|this fixed it|that did the trick|it’s fixed|it is fixed|is fixed now|fixed now|works now|working now|' +
      'working again|works again|problem solved|issue solved|issue resolved|problem resolved|resolved now|all good now|' +
      'all sorted|sorted now|{you can,please,feel free to} close {this,the} {ticket,case,issue,request}|' +
      'no longer {an issue,a problem,needed}|thanks for {fixing,resolving,the fix,the quick fix,sorting}|' +
      'thank you for {fixing,resolving,the fix,the quick fix,sorting}|problem gelost|funktioniert wieder|geht wieder|' +
      'probleme resolu|ca marche|ca fonctionne|ca remarche|problema resuelto|ya funciona|funciona de nuevo',
  },
  {
    code: 'POSITIVE_FEEDBACK',
    weight: -5,
    phrases:
      'love {your,the} {product,app,service,tool,platform}|great {job,work,product,service,support}|' +
      'awesome {product,support,job,app}|well done|keep up the good work|excellent {service,support}|kudos|' +
      'super helpful|very helpful|amazing support|happy customer',
  },

  // ---- automation, bulk mail, auto-replies, spam (archive candidates) --------------------------
  {
    code: 'AUTOMATED_NOTIFICATION',
    weight: -15,
    phrases:
      'this is an automated {message,email,notification,e mail}|this {message,email,notification} was {sent,generated} automatically|' +
      'automatically generated|auto generated|do not reply|don’t reply|please do not reply|do not respond to this|' +
      'this mailbox is not monitored|unmonitored mailbox|notification settings|manage {your,} notifications|' +
      'your {weekly,daily,monthly} {report,summary,digest,statement}|' +
      'your order {has been,was,is} {shipped,confirmed,delivered,on its way}|order confirmation|shipping confirmation|' +
      'delivery notification|payment received|payment confirmation|receipt for your {payment,purchase,order}|' +
      'build {succeeded,passed,successful}|deployment {succeeded,successful,completed}|' +
      '{backup,job,sync,export,import} completed {successfully,}|completed successfully|' +
      'verify your email|confirm your email|verification code|one time password|your code is|' +
      'delivery status notification|undeliverable|delivery has failed|mail delivery {failed,failure,subsystem}|returned mail|' +
      'automatisch generiert|bitte nicht antworten|ne pas repondre|no responder|mensaje automatico|message automatique',
  },
  {
    code: 'AUTOMATED_NOTIFICATION',
    weight: -5,
    phrases:
      'notification|digest|reminder|calendar invitation|meeting invitation|new comment|commented on|mentioned you|' +
      'assigned to you|pull request|status update',
  },
  {
    code: 'NEWSLETTER_LANGUAGE',
    weight: -20,
    phrases:
      'unsubscribe|unsubscribe here|click here to unsubscribe|to unsubscribe|opt out|opt out of|' +
      'manage {your,} {preferences,subscription,subscriptions,email preferences}|email preferences|update your preferences|' +
      'view {this email,it,} in {your,a,} browser|view online|view as web page|' +
      'you {are,were} receiving this {email,message,newsletter} because|you received this {email,message} because|' +
      'you signed up|weekly newsletter|monthly newsletter|our newsletter|this newsletter|' +
      'abmelden|newsletter abbestellen|abbestellen|se desabonner|desabonner|se desinscrire|desinscrire|desinscription|' +
      'darse de baja|cancelar suscripcion|anular suscripcion',
  },
  {
    code: 'NEWSLETTER_LANGUAGE',
    weight: -5,
    phrases:
      'newsletter|webinar|register now|sign up today|special offer|shop now|read more|forward to a friend|privacy policy|' +
      'all rights reserved|follow us|this week in|off your first order|limited time offer|sale ends',
  },
  {
    code: 'AUTO_REPLY',
    weight: -25,
    phrases:
      'out of office reply|out of office autoreply|automatic reply|auto reply|autoreply|auto response|automatic response|autoresponder|' +
      '{i am,i’m} currently {out,away,on vacation,on leave,on holiday,travelling,traveling,out of the office,out of office}|' +
      'limited access to {my,} email|limited access to e mail|will respond {when i return,upon my return,on my return,as soon as i return}|' +
      'upon my return|on annual leave|on parental leave|on maternity leave|' +
      'abwesenheitsnotiz|abwesenheit|ausser haus|nicht im buro|reponse automatique|absent du bureau|je suis absent|' +
      'je suis absente|respuesta automatica|fuera de la oficina|estoy de vacaciones',
  },
  {
    code: 'AUTO_REPLY',
    weight: -25,
    field: 0,
    phrases: 'out of office|out of the office|ooo|abwesend|abwesenheitsnotiz|absence du bureau|fuera de la oficina',
  },
  {
    code: 'AUTO_REPLY',
    weight: -10,
    phrases:
      'out of office|out of the office|ooo|i will be out|i’ll be out|i am away|i’m away|on vacation until|' +
      'returning on|en conge|ausente',
  },
  {
    code: 'SPAM_LANGUAGE',
    weight: -30,
    phrases:
      'you have won|you’ve won|you are a winner|you have been selected|you’ve been selected|selected to receive|' +
      'claim your {prize,reward,gift,cash,voucher,bonus}|cash prize|{won,win} the lottery|lottery {winner,prize,jackpot,award}|' +
      'jackpot|sweepstakes|free entry|' +
      'viagra|cialis|casino|bitcoin {investment,opportunity,doubler}|crypto {investment,opportunity}|' +
      'double your {money,bitcoin,investment}|make money fast|earn money from home|get rich|' +
      'next of kin|dear beneficiary|unclaimed funds|wire transfer fee|western union|moneygram|' +
      'hot singles|singles in your area|cheap meds|weight loss pills|no credit check|pre approved|preapproved|' +
      // advance-fee ("419") fraud
      '{urgent,confidential,strictly confidential} business proposal|transfer {the,these,this} funds|transfer of {the,these} funds|' +
      'foreign partner|consignment box|diplomatic courier|compensation fund|risk free transaction|next of kin',
  },
  {
    code: 'SPAM_LANGUAGE',
    weight: -5,
    phrases:
      'winner|prize|lottery|claim now|free gift|100% free|risk free|act now|call now|text stop|reply stop|send stop|' +
      'ringtone|ringtones|sexy|xxx|inheritance|beneficiary|dear friend|millionaire|guaranteed income|urgent reply',
  },
  {
    code: 'PERSONAL_LANGUAGE',
    weight: -5,
    phrases:
      'lunch|dinner|drinks|happy hour|birthday|wedding|baby|my family|your family|weekend plans|vacation|holiday plans|' +
      'golf|party|game tonight|love you|miss you|my mom|my dad|the kids|my wife|my husband|girlfriend|boyfriend|' +
      'see you tonight|catch up soon|hope you’re well|hope you are well|how are you|how was your',
  },

  // ---- modifiers ------------------------------------------------------------------------------
  {
    code: 'URGENCY_LANGUAGE',
    weight: 10,
    phrases:
      'urgent|urgently|asap|as soon as possible|immediately|immediate attention|right away|emergency|critical|' +
      'time sensitive|top priority|high priority|need this today|need it today|dringend|eilig|sofort|umgehend|notfall|so schnell wie moglich|' +
      'urgence|immediatement|tout de suite|au plus vite|le plus rapidement possible|des que possible|urgente|inmediatamente|lo antes posible|' +
      'cuanto antes|emergencia|ya mismo',
  },
  {
    code: 'NOT_URGENT',
    weight: -5,
    phrases:
      'no rush|no hurry|no pressure|not urgent|not a priority|low priority|' +
      '{whenever,when} you {can,get a chance,have a chance,have time,get time,have a moment,get a moment}|' +
      'at your convenience|at your leisure|no need to hurry|take your time|not time sensitive|kein stress|keine eile|' +
      'nicht dringend|pas urgent|pas presse|rien ne presse|quand vous aurez le temps|sin prisa|no es urgente|cuando puedas|' +
      'cuando tengas tiempo',
  },
  {
    code: 'REPEATED_CONTACT',
    weight: 10,
    phrases:
      'still not|still no|still waiting|still broken|still down|still failing|still happening|still having|still getting|' +
      '{third,second,fourth,fifth,3rd,4th,5th} time|several times|multiple times|again and again|' +
      '{down,broken,failing,crashing,happening,failed,crashed} again|' +
      '{no,received no,got no} {response,reply,answer} {yet,from}|not heard back|haven’t heard back|' +
      '{nobody,no one} {has,} {replied,responded,answered,gotten back}|per my last email|as i said before|' +
      'noch immer|immer noch|keine antwort|toujours pas|toujours aucune|pas de reponse|sigue sin|todavia no|sin respuesta',
  },
  {
    code: 'FRUSTRATION',
    weight: 5,
    phrases:
      'unacceptable|ridiculous|furious|outraged|very disappointed|extremely disappointed|frustrated|frustrating|' +
      'terrible service|worst service|horrible|awful|fed up|last straw|waste of {time,money}|inakzeptabel|unverschamt|' +
      'inadmissible|inaceptable',
  },

  // ---- severity words in text (metadata.severity wins when present) ---------------------------
  { code: 'SEVERITY_CRITICAL', weight: 50, phrases: 'sev0|sev1|sev 0|sev 1|severity 1|severity critical|p0|p1' },
  { code: 'SEVERITY_HIGH', weight: 30, phrases: 'sev2|sev 2|severity 2|severity high|p2' },
  { code: 'SEVERITY_MEDIUM', weight: 10, phrases: 'sev3|sev 3|severity 3|warning', sources: ['internal'] },
];

/** Words that negate a following keyword within 3 tokens of the same clause. */
export const NEGATORS =
  'not|no|never|isn’t|isnt|aren’t|arent|wasn’t|wasnt|weren’t|werent|don’t|dont|doesn’t|doesnt|didn’t|didnt|' +
  'hasn’t|hasnt|haven’t|havent|won’t|nothing|none|without|nor|neither|nicht|kein|keine|keinen|keiner|nie|pas|jamais|' +
  'aucun|aucune|sans|nunca|sin|ningun|ninguna|ni';

/** Metric nouns whose following number is read (internal alerts, monitoring mail). */
export const METRIC_NOUNS: Readonly<Record<string, 'usage' | 'error' | 'latency'>> = {
  disk: 'usage',
  'disk space': 'usage',
  'disk usage': 'usage',
  storage: 'usage',
  cpu: 'usage',
  'cpu usage': 'usage',
  'cpu load': 'usage',
  memory: 'usage',
  'memory usage': 'usage',
  mem: 'usage',
  ram: 'usage',
  heap: 'usage',
  capacity: 'usage',
  'cluster capacity': 'usage',
  swap: 'usage',
  inodes: 'usage',
  'error rate': 'error',
  'failure rate': 'error',
  errors: 'error',
  '5xx': 'error',
  '5xx rate': 'error',
  'packet loss': 'error',
  latency: 'latency',
  'p99 latency': 'latency',
  'p95 latency': 'latency',
  'latency p99': 'latency',
  'latency p95': 'latency',
  p99: 'latency',
  p95: 'latency',
  p90: 'latency',
  'response time': 'latency',
  'response times': 'latency',
  // German, French, Spanish
  festplatte: 'usage',
  speicher: 'usage',
  arbeitsspeicher: 'usage',
  speicherplatz: 'usage',
  speicherauslastung: 'usage',
  auslastung: 'usage',
  disque: 'usage',
  memoire: 'usage',
  processeur: 'usage',
  stockage: 'usage',
  // not "disco" alone: a record ("disco de vinilo al 90% de descuento"); the first word names the metric in messages
  'disco duro': 'usage',
  'disco lleno': 'usage',
  memoria: 'usage',
  procesador: 'usage',
  almacenamiento: 'usage',
  fehlerrate: 'error',
  fehlerquote: 'error',
  'taux d’erreur': 'error',
  'taux d’erreurs': 'error',
  'taux d’echec': 'error',
  'tasa de error': 'error',
  'tasa de errores': 'error',
  'tasa de fallos': 'error',
  latenz: 'latency',
  antwortzeit: 'latency',
  antwortzeiten: 'latency',
  latence: 'latency',
  'temps de reponse': 'latency',
  latencia: 'latency',
  'tiempo de respuesta': 'latency',
};
