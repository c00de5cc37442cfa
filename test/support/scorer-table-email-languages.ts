// Rows of the table of realistic signals (test/support/scorer-table.ts), hand-written, none taken from the
// evaluation data sets. Email in French, German and Spanish: outages, cancellations, a hedged invoice request.
import type { Row } from './scorer-signals';

export const EMAIL_LANGUAGE_ROWS: Row[] = [
  // ---- languages ----
  [
    'an account at risk in a security warning is no churn',
    {
      source: 'email',
      subject: 'Security alert: your account is at risk',
      body: 'We noticed an unusual sign-in to your account.',
    },
    'medium',
    'respond',
    'security',
  ],
  [
    'German thanks for help given is no request for help',
    { source: 'email', subject: 'Danke', body: 'Danke für Ihre Hilfe, alles funktioniert jetzt.' },
    'low',
    'review',
    'general',
  ],
  [
    'Spanish "todo" is "all", not a to-do',
    { source: 'email', subject: 'Gracias por todo', body: 'Gracias por todo, saludos.' },
    'low',
    'review',
    'general',
  ],
  [
    'French outage',
    {
      source: 'email',
      subject: 'Panne',
      body: 'Le site est en panne depuis ce matin, c’est urgent !',
      sender: 'support@boutique.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'French cancellation, asap',
    {
      source: 'email',
      subject: 'Résiliation',
      body: 'Bonjour, nous souhaitons résilier notre contrat dès que possible.',
      sender: 'direction@pme.example',
    },
    'high',
    'respond_now',
    'churn_risk',
  ],
  [
    'German outage',
    {
      source: 'email',
      subject: 'Shop nicht erreichbar',
      body: 'Unser Shop ist seit 8 Uhr nicht erreichbar. Bitte dringend prüfen!',
      sender: 'it@handel.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'German cancellation',
    {
      source: 'email',
      subject: 'Kündigung',
      body: 'Hiermit kündigen wir unseren Vertrag zum Monatsende.',
      sender: 'buchhaltung@firma.example',
    },
    'medium',
    'respond',
    'churn_risk',
  ],
  [
    'Spanish outage',
    {
      source: 'email',
      subject: 'Caída',
      body: 'La plataforma está caída y es urgente.',
      sender: 'soporte@tienda.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'German order not arrived',
    {
      source: 'email',
      subject: 'Bestellung 4711',
      body: 'Meine Bestellung ist immer noch nicht angekommen.',
      sender: 'kunde@mail.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'French login failure',
    {
      source: 'email',
      subject: 'Connexion',
      body: 'Je n’arrive pas à me connecter à mon compte depuis hier.',
      sender: 'client@mail.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'Spanish price for a number of users',
    {
      source: 'email',
      subject: 'Consulta',
      body: '¿Cuál es el precio para 25 usuarios?',
      sender: 'compras@empresa.example',
    },
    'medium',
    'respond',
    'sales_opportunity',
  ],
  [
    'French monitoring mail: database not responding',
    {
      source: 'email',
      subject: 'Alerte supervision',
      body: 'La base de données ne répond pas depuis 10 minutes.',
      sender: 'supervision@hebergeur.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'Spanish cancellation',
    { source: 'email', subject: 'Baja', body: 'Quiero cancelar mi suscripción.', sender: 'cliente@correo.example' },
    'medium',
    'respond',
    'churn_risk',
  ],
  [
    'Spanish, not urgent, invoice',
    {
      source: 'email',
      subject: 'Factura',
      body: 'No es urgente, pero ¿me pueden enviar la factura de octubre?',
      sender: 'admin@oficina.example',
    },
    'low',
    'review',
    'billing',
  ],
];
