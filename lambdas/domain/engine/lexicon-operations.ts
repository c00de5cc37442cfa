// The operational vocabulary of the lexicon: the things monitoring alerts and outage reports name, the sources they
// come from, and the alert conditions by severity class (lexicon.ts places ALERT_CONDITIONS before INTERNAL_ALERT).
// Same syntax as lexicon.ts, and the same `npm run lexicon:index` after an edit.
import type { Source } from '../signal';

export interface LexGroup {
  /** Reason code, or IGNORE for phrases that only shield their words from other matches. */
  code: string;
  weight: number;
  phrases: string;
  /** Only for these sources (default: all). */
  sources?: readonly Source[];
  /** Only in this field (0 = subject). */
  field?: 0;
  /** Only when one of these words ("|"-separated) is among the 4 words before, in the same clause. */
  near?: string;
}

// Things that can be "down", "unavailable", "slow" (single words, used as a `near` context).
export const SYSTEMS =
  'site|website|webpage|server|servers|system|systems|service|services|app|apps|application|api|apis|database|db|' +
  'network|platform|portal|production|prod|login|checkout|dashboard|cluster|vpn|homepage|store|shop|backend|endpoint|' +
  'endpoints|gateway|payments|everything|instance|instances|integration|sync|cloud|storage|ci|pipeline|email|mail|' +
  'servidor|sistema|servicio|sitio|plataforma|seite|webseite|dienst|plattform|serveur|plateforme|' +
  'datenbank|datenbanken|netzwerk|anwendung|serveurs|bdd|reseau|systeme|servidores|sistemas|aplicacion';

// Machines, for the German, French and Spanish "not responding" words (lexicon.ts): SYSTEMS without the words that
// also name people ("le service client ne répond pas", "el servicio no responde" is a help desk, not an outage), plus
// the last word of "base de datos" and "base de données" (here no ordinary sentence has data "not answering").
export const MACHINES =
  'site|website|server|servers|system|systems|app|application|api|database|db|network|platform|portal|cluster|vpn|' +
  'backend|endpoint|gateway|instance|dashboard|datenbank|datenbanken|webseite|plattform|netzwerk|anwendung|serveur|' +
  'serveurs|plateforme|reseau|systeme|bdd|donnees|servidor|servidores|sistema|sistemas|plataforma|sitio|aplicacion|datos';

// Infrastructure words that monitoring alerts name as the thing that is down, missing or lagging (internal signals
// and tickets only: in mail, "host", "node" or "job" are too often something else).
const INFRA =
  `${SYSTEMS}|target|targets|host|hosts|node|nodes|pod|pods|container|containers|exporter|exporters|job|jobs|replica|replicas|` +
  'master|primary|leader|broker|brokers|worker|workers|agent|agents|daemon|kubelet|apiserver|etcd|member|members|scheduler|' +
  'controller|prometheus|alertmanager|postgres|postgresql|mysql|mariadb|redis|kafka|zookeeper|elasticsearch|opensearch|' +
  'rabbitmq|cassandra|mongodb|mongo|memcached|nginx|haproxy|envoy|consul|vault|jenkins|ceph|minio|vm|vms|machine|machines|' +
  'backend|backends|upstream|upstreams|probe|probes|interface|disk|disks|volume|volumes|filesystem|partition|shard|shards|' +
  'queue|consumer|consumers|process|processes|cronjob|deployment|statefulset|daemonset|metric|metrics|peer|peers|bucket|' +
  'index|proxy|balancer|dns|ingress|certificate|heartbeat|scrape|scrapes|exporter|' +
  'donnees|datos|knoten|noeud|noeuds|nodo|nodos|festplatte|disque|disco|dienste|servicios';
// Words next to which a number of hours or days is a time to exhaustion or expiry ("will fill within 4 hours").
const EXHAUST = 'fill|full|space|exhaust|exhausted|expire|expires|expiring|expiry|quota|inodes|memory|disk';
/** Operational sources: alert conditions in mail or chat are read only where the phrase cannot mean anything else. */
export const OPS: readonly Source[] = ['internal', 'task'];
const NOT_CRM: readonly Source[] = ['email', 'task', 'support_message', 'internal'];

export const ALERT_CONDITIONS: readonly LexGroup[] = [
  // ---- alert conditions by severity class (metadata.severity replaces them when given) ---------------
  // Before INTERNAL_ALERT: a phrase listed twice counts for its first group only, and "out of memory" is a critical
  // condition before it is a sign of a firing alert.
  {
    code: 'OUTAGE_LANGUAGE',
    weight: 45,
    sources: OPS,
    near: INFRA,
    phrases:
      'down|unreachable|not reachable|unresponsive|not responding|offline|dead|not answering|is gone|has gone away|' +
      // Led by the verb, the phrase reaches one word further back for the system word ("targets in namespace are down").
      '{is,are,was,were,has been,have been,been,went,goes,go,seems,appears,appear,seems to be,appears to be} ' +
      '{down,unreachable,offline,unresponsive,dead,not responding}|' +
      'antwortet nicht|antwortet nicht mehr|reagiert nicht|reagiert nicht mehr|ne repond pas|ne repond plus|injoignable|' +
      'hors ligne|no responde|ya no responde|inaccesible|fuera de linea|' +
      // "caída" is also a fall ("los datos de la caída de ventas"): only as the last word ("base de datos caída")
      'caido$|caida$',
  },
  {
    code: 'CRITICAL_CONDITION',
    weight: 40,
    sources: NOT_CRM,
    phrases:
      'out of memory|out of memory error|oom killed|oom kill|oom killer|oomkilled|oom killed|memory exhausted|' +
      'disk full|disk is full|disks are full|filesystem full|file system full|filesystem is full|file system is full|volume full|' +
      'volume is full|partition full|partition is full|no space left|no space left on device|no free space|out of disk space|' +
      'out of space|ran out of {disk,} space|ran out of memory|out of inodes|no inodes left|' +
      'split brain|no quorum|lost quorum|quorum lost|loss of quorum|lost {its,the} quorum|no leader|has no leader|lost {its,the} leader|' +
      'leader lost|no master|missing master|no primary|' +
      'replication {broken,stopped,failed,halted,is broken,has stopped,has failed,is not running,not running,is stopped}|' +
      'crash looping|crashlooping|crashloop|crash loop|crashloopbackoff|crash loop back off|' +
      'kernel panic|segmentation fault|segfault|core dumped|' +
      '{certificate,cert,tls certificate,ssl certificate} {expired,has expired,is expired}|expired {certificate,cert}|' +
      '{backup,backups} {failed,has failed,have failed,did not run,are failing,is missing,are missing}|no {recent,} backup|' +
      'read only {filesystem,file system,mode}|remounted read only|mounted read only|' +
      'data corruption|corrupted data|checksum {mismatch,failure,failed,error,errors,verification failed}|' +
      '{all,most,every} {requests,calls,queries,probes,checks,health checks,backends,endpoints,replicas,instances,nodes,pods,targets,members} ' +
      '{fail,fails,failing,are failing,failed,down,are down,unhealthy,are unhealthy,unreachable,are unreachable}|' +
      '{no,zero} {healthy,available,ready,running} {backend,backends,endpoint,endpoints,replica,replicas,instance,instances,node,nodes,pod,pods,' +
      'target,targets,upstream,upstreams,host,hosts,member,members,worker,workers,broker,brokers}|no healthy upstream|' +
      '{cluster,cluster health,cluster status,cluster state,health,status} {is,} red|health {err,error}|health status {is,} {err,error}|' +
      'cluster {unhealthy,is unhealthy,down,is down,unavailable,is unavailable,failed,has failed}|' +
      'disk failure|disk failed|drive failure|drive failed|raid {failed,failure}|hardware failure|power failure|power loss|' +
      'offline partitions|primary shards {are,} unassigned|unavailable replicas|' +
      // German, French, Spanish ("voll", "plein", "lleno" only after a disk word)
      '{festplatte,dateisystem,partition,datentrager} {ist,} {voll,vollgelaufen}|kein {freier,} speicherplatz {mehr,}|' +
      'nicht genugend speicherplatz|speicherplatz {erschopft,aufgebraucht}|arbeitsspeicher {erschopft,aufgebraucht,voll}|' +
      'nicht genugend arbeitsspeicher|kein arbeitsspeicher {mehr,}|' +
      '{disque,disque dur,systeme de fichiers,partition} {est,} plein|plus d’espace {disque,libre,sur le disque}|' +
      'aucun espace {disque,libre} {disponible,}|espace disque {epuise,insuffisant}|memoire {epuisee,insuffisante,saturee}|' +
      '{disco,disco duro,sistema de archivos,particion,volumen} {esta,} lleno|sin espacio {en disco,libre,en el disco}|' +
      'no queda espacio {en disco,libre,en el disco}|espacio en disco agotado|memoria {agotada,insuficiente}|' +
      '{sicherung,datensicherung,backup} {fehlgeschlagen,ist fehlgeschlagen,gescheitert,abgebrochen}|' +
      'fehlgeschlagene {sicherung,datensicherung}|' +
      '{sauvegarde,backup} {echouee,a echoue,en echec}|echec {de la,du} {sauvegarde,backup}|echec sauvegarde|' +
      '{copia de seguridad,respaldo,backup} {fallida,fallido,ha fallado,fallo}|' +
      '{fallo,error} {de la,en la,del,en el} {copia de seguridad,respaldo,backup}|' +
      '{zertifikat,ssl zertifikat,tls zertifikat} {ist,} abgelaufen|abgelaufenes zertifikat|' +
      '{certificat,certificat ssl,certificat tls} {a expire,est expire,expire pour,expire sur,expire depuis,perime,expire$}|' +
      '{certificado,certificado ssl,certificado tls} {ha,esta,} {caducado,expirado,vencido}|' +
      'replikation {gestoppt,angehalten,fehlgeschlagen,unterbrochen}|replication {arretee,interrompue,en echec}|' +
      'replicacion {detenida,fallida,interrumpida}|' +
      'festplattenausfall|festplatte {defekt,ausgefallen}|panne de disque|disque {defectueux,en panne}|fallo de disco|' +
      'disco {danado,defectuoso}|datenbeschadigung|beschadigte daten|donnees corrompues|corruption de donnees|' +
      'datos corruptos|corrupcion de datos',
  },
  {
    code: 'CRITICAL_CONDITION',
    weight: 40,
    sources: OPS,
    phrases:
      '{cannot,can’t,could not,couldn’t,unable to,failed to} {connect,reach} {to,}|connection refused|' +
      '{health check,healthcheck,health checks,healthchecks,probe,probes,liveness probe,readiness probe} {failed,failing,fails,fail}|' +
      'corrupt|corrupts|corrupted|corruption|data {is,was,} lost|lost data|deadlock detected|' +
      'verbindung {abgelehnt,verweigert}|connexion refusee|conexion rechazada|' +
      '{health check,healthcheck,zustandsprufung} fehlgeschlagen|{health check,healthcheck} {echoue,en echec,fallido}',
  },
  {
    // Internal only: in a ticket "not ready", "missing" or "stopped" are about the work, not a system.
    code: 'CRITICAL_CONDITION',
    weight: 40,
    sources: ['internal'],
    phrases: 'not ready|notready|unready|is not ready|never became ready',
  },
  {
    // Hours to exhaustion or expiry: "will fill within 4 hours", "expires in 12 hours".
    code: 'CRITICAL_CONDITION',
    weight: 40,
    sources: ['internal'],
    near: EXHAUST,
    phrases:
      '{1,2,3,4,5,6,8,12,24,one,two,three,four,six,twelve,few,couple of} hours|an hour|next hour|next few hours|1h|2h|4h|6h|12h|24h',
  },
  {
    code: 'CRITICAL_CONDITION',
    weight: 40,
    sources: ['internal'],
    near: INFRA,
    phrases:
      'missing|disappeared|has disappeared|absent|crashed|has crashed|not running|stopped|has stopped|lost|no data|' +
      '{is,are,has,have,was,were,has been,have been,may have,might have} {missing,disappeared,absent,crashed,not running,stopped,lost}|' +
      '{ist,} abgesturzt|gestoppt|lauft nicht {mehr,}|{a,} plante|s’est arrete|ne tourne plus|{se ha,} detenido|' +
      'se cayo|se ha caido|no se esta ejecutando',
  },
  {
    code: 'WARNING_CONDITION',
    weight: 20,
    sources: NOT_CRM,
    phrases:
      '{high,elevated,increased,excessive,abnormal,unusual} {cpu,memory,ram,disk,swap,heap,network,io,iowait,inode,connection,thread,' +
      'file descriptor} {usage,utilization,utilisation,load,pressure,consumption,traffic,throughput,count}|' +
      'high {cpu,memory,load,load average,swap,iowait,disk usage,memory usage,cpu usage,cpu load,number of}|' +
      '{cpu,memory,ram,disk,swap,heap,inode,inodes,disk space,storage,load,cpu load} {usage,utilization,utilisation,} {is,} ' +
      '{high,too high,very high,above threshold,over threshold,elevated}|' +
      'memory pressure|disk pressure|pid pressure|' +
      '{disk,filesystem,file system,volume,partition,storage} {is,} {almost full,nearly full,filling up,running full}|almost full|nearly full|' +
      'filling up|running low|low {disk space,disk,memory,free space,space,inodes,free memory}|{disk space,free space,memory} {is,} {low,running low}|' +
      '{running,almost,nearly,will,is going to,predicted to,expected to,is predicted to,is expected to,will soon} run out of ' +
      '{space,disk space,disk,memory,inodes,capacity,file descriptors}|' +
      '{almost,nearly,soon} out of {space,disk space,disk,memory,inodes,capacity,file descriptors}|' +
      '{will,is going to,is predicted to,is expected to,predicted to,expected to} {fill,fill up,be full,exhaust,run out}|' +
      '{replication,replica,consumer,consumer group,follower,sync} lag|{seconds,minutes} behind|' +
      'behind {the,its} {primary,master,leader}|' +
      'too many {restarts,connections,open files,requests,errors,retries,processes,threads,file descriptors,open connections,failed logins}|' +
      'restarting {frequently,often,too often,repeatedly}|frequent restarts|restarted {more than,several times,multiple times,repeatedly}|' +
      '{high,increased,elevated} {latency,response time,response times,error rate,error rates,failure rate,5xx rate,request latency}|' +
      '{latency,response time,error rate,failure rate} {is,} {high,above,increased,elevated,too high}|' +
      'slow {queries,query,requests,responses,scrapes,replication}|' +
      '{queue,backlog} {growing,is growing,building up,piling up,too large,is too large}|backlog growing|' +
      'cpu throttling|throttled requests|' +
      'clock {skew,drift,out of sync,not synchronised,not synchronized,not synchronising,not synchronizing}|time drift|ntp {drift,offset}|' +
      '{certificate,cert,tls certificate,ssl certificate} {expires soon,expiring soon,will expire,expires in,is expiring,expiring,is about to expire}|' +
      'expiring soon|expires soon|' +
      '{approaching,near,nearing,close to} {the,its,their} {limit,limits,quota,capacity,maximum}|near capacity|nearing capacity|' +
      'quota {almost,nearly} {full,exhausted,reached}|under replicated|underreplicated|unassigned shards|shards {are,} unassigned|' +
      'dropped packets|packets dropped|connection pool {exhausted,saturated}|' +
      // German, French, Spanish
      '{hohe,erhohte} {cpu auslastung,cpu last,speicherauslastung,arbeitsspeicherauslastung,festplattenauslastung,' +
      'systemlast,fehlerrate,antwortzeit,antwortzeiten}|hoher {speicherverbrauch,arbeitsspeicherverbrauch}|' +
      '{cpu auslastung,cpu last,speicherauslastung,festplattenauslastung,fehlerrate,antwortzeit} {ist,} {hoch,zu hoch,sehr hoch}|' +
      '{utilisation,charge,consommation} {cpu,memoire,disque,du processeur,de la memoire,du disque,processeur} ' +
      '{elevee,tres elevee,trop elevee,excessive}|forte {utilisation,charge,consommation} {cpu,memoire,du processeur,de la memoire}|' +
      '{taux d’erreur,taux d’erreurs,temps de reponse} {eleve,eleves,tres eleve,trop eleve,en hausse}|' +
      '{uso,consumo,carga} {de,del,} {cpu,memoria,disco,procesador} {alto,alta,elevado,elevada,muy alto,muy alta,excesivo}|' +
      '{alto,elevado} {uso,consumo} de {cpu,memoria,disco}|alta carga de cpu|{alta,elevada} tasa de errores|' +
      '{tasa de errores,tiempo de respuesta} {alta,alto,elevada,elevado}|' +
      '{festplatte,dateisystem,partition,datentrager,speicherplatz} {ist,} {fast voll,fast erschopft,beinahe voll,lauft voll}|' +
      'wenig {freier,} speicherplatz|speicherplatz wird knapp|' +
      '{disque,systeme de fichiers,partition,volume} {est,} {presque plein,bientot plein,quasi plein}|espace disque faible|' +
      '{disco,sistema de archivos,particion,volumen} {esta,} {casi lleno,llenandose}|poco espacio en disco|' +
      '{zertifikat,ssl zertifikat,tls zertifikat} {lauft bald ab,lauft in,lauft am}|' +
      '{certificat,certificat ssl,certificat tls} {expire bientot,expire dans,expire le,va expirer}|' +
      '{certificado,certificado ssl,certificado tls} {caduca pronto,caduca en,expira pronto,expira en,vence pronto,va a caducar}|' +
      'replikationsverzogerung|retard de replication|retraso de replicacion|' +
      'zu viele {neustarts,verbindungen}|trop de {redemarrages,connexions}|demasiados reinicios|demasiadas conexiones',
  },
  {
    // Internal only: in a ticket or a mail these words are as often about work ("product backlog", "pending review").
    code: 'WARNING_CONDITION',
    weight: 20,
    sources: ['internal'],
    phrases:
      'pending|stuck|evicted|unhealthy|deadlock|deadlocks|{job,cron job,cronjob,batch job} {failed,has failed,failing}|' +
      'lagging|lagging behind|backlog|pile up|piling up|throttling|throttled|rate limited|out of sync|flapping|swapping|' +
      'saturated|saturation|uberlastet|sature|saturee|surcharge|surchargee|saturado|saturada|sobrecargado|sobrecargada|' +
      'errors {increasing,increased,rising}|error spike|takes longer than|taking longer than',
  },
  {
    // In an alert, any failure or threshold word is at least a warning.
    code: 'WARNING_CONDITION',
    weight: 20,
    sources: ['internal'],
    phrases:
      'failed|failing|fails|failure|failures|error|errors|timeout|timeouts|timed out|refused|rejected|dropped|denied|' +
      'exceeded|exceeds|exceeding|using more than|uses more than|is using more than|above threshold|above the threshold|' +
      'over threshold|over the threshold|higher than|more than expected|too high|too slow|too long|high|too much|too many|' +
      'unusual|abnormal|anomalous|anomaly|spike|spikes|growing|increasing|rising|maxed out|at max|at maximum|at its maximum|' +
      '{max,maximum} replicas|limit reached|{reached,hit} {the,its,their} {limit,maximum,quota}|' +
      '{disk space,free space,free disk space,available space,space} {is,} {below,under,less than}|' +
      // German, French, Spanish ("high" only here, where the English group has it)
      'fehlgeschlagen|fehler|uberschritten|schwellenwert uberschritten|hoch|zu hoch|sehr hoch|' +
      'echoue|echouee|echec|erreur|erreurs|depasse|seuil depasse|eleve|elevee|trop eleve|trop elevee|' +
      'fallo|fallido|fallida|errores|superado|umbral superado|alto|muy alto|demasiado alto|' +
      'fehlerrate|fehlerquote|taux d’erreur|taux d’erreurs|tasa de error|tasa de errores',
  },
  {
    // Days to exhaustion or expiry: "will fill up in 4 days", "expires in 14 days".
    code: 'WARNING_CONDITION',
    weight: 20,
    sources: ['internal'],
    near: EXHAUST,
    phrases:
      '{1,2,3,4,5,6,7,10,14,21,30,few,couple of,two,three,four,five,seven,several} days|{a,one,two} {week,weeks}',
  },
  {
    code: 'INFORMATIONAL_ALERT',
    weight: -10,
    sources: ['internal'],
    phrases:
      'informational|for information|for your information|fyi|info only|for information only|information only|info level|' +
      'severity info|no action {needed,required,is needed,is required}|nothing to do|can be ignored|safe to ignore|not an incident|' +
      'heartbeat|watchdog|dead man’s switch|deadmansswitch|dead mans switch|always firing|always fires|is always firing|' +
      '{config,configuration} {reloaded,reload,was reloaded,has been reloaded,changed,updated,applied}|reloaded|' +
      'restarted$|{was,has been,has} restarted$|rebooted|was rebooted|has been rebooted|uptime|' +
      '{new,} version {deployed,released,rolled out,available,installed}|deployed|rolled out|was rolled out|new release|' +
      'deployment {completed,finished,succeeded,started}|' +
      'scaled {up,down,out,in}|autoscaled|scaling event|autoscaler {added,removed}|' +
      '{low,below} {usage,utilization,utilisation,traffic,load}|underutilized|underutilised|under utilized|idle|overprovisioned|' +
      'over provisioned|consider {a smaller,downsizing,reducing}|' +
      '{weekly,daily,monthly,nightly} {summary,report,digest}|cost {summary,report}|' +
      'maintenance {window,scheduled,planned}|scheduled maintenance|planned maintenance|' +
      'finished successfully|succeeded|renewed|was renewed|has been renewed|' +
      '{flag,feature flag,setting,settings,parameter} {changed,updated,was set,set to}|was set to|has changed|changed to|' +
      'versions differ|different versions|inhibit|inhibits|inhibitor|inhibition|test alert|this is a test|' +
      'upgraded|was upgraded|has been upgraded|was updated|has been updated|updated to|joined|has joined|was added|new node',
  },
];
