import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Manual de usuario',
  intro: 'Qué hace esta versión de la consola de despacho y cómo usarla.',
  sections: [
    {
      id: 'signin',
      title: 'Inicio de sesión',
      body: [
        'Introduzca su cuenta de operador de 8 dígitos y su contraseña y pulse Iniciar sesión. Solo las cuentas de operador pueden usar la consola; una cuenta de terminal se rechaza con «tipo de cuenta incorrecto».',
        'Marque «Recordar contraseña» para que el navegador rellene el formulario la próxima vez. La contraseña se guarda cifrada con una clave que nunca sale de este navegador.',
        'Tras cinco contraseñas incorrectas seguidas, la cuenta se bloquea 10 minutos. «¿Ha olvidado la contraseña?» envía un código de verificación al correo vinculado a la cuenta y le permite elegir una nueva contraseña.',
      ],
    },
    {
      id: 'shell',
      title: 'La ventana principal',
      body: [
        'El menú superior muestra, en un orden fijo, las pantallas que puede usar su cuenta; las menos habituales están en «Más». Las pantallas marcadas como «aún no está en esta versión» llegarán en próximas versiones.',
        'A la derecha: el indicador de conexión en directo (verde cuando está conectado), el idioma, el interruptor oscuro/claro, Ajustes y el menú de su cuenta (cambiar contraseña, notas de la versión, este manual, cerrar sesión).',
      ],
    },
    {
      id: 'tree',
      title: 'Grupos y terminales',
      body: [
        'La pantalla de despacho muestra sus grupos fijos (con sus subgrupos) y los grupos temporales. Cada terminal muestra su icono de tipo y su nombre; conectado, la señal y la batería; bloqueado, una etiqueta «Bloqueado» o «Aturdido»; desconectado, cuándo se vio por última vez. Un punto señala los terminales que están ahora en ese grupo.',
        'Todo se actualiza en directo: un terminal que se conecta se pone verde sin recargar la página. Con hasta 30 grupos, los grupos aparecen como pestañas; con más, como un único árbol desplazable.',
        'Use el cuadro de búsqueda para encontrar un terminal por nombre o ID, y los interruptores para ocultar los terminales desconectados o los operadores. Haga clic en un terminal para ver sus datos en el panel de información.',
      ],
    },
    {
      id: 'groups',
      title: 'Grupos temporales y fijos',
      body: [
        'Marque terminales en el árbol y elija «Grupo temporal» para crear un grupo temporal. Su nombre es obligatorio, único y de 20 caracteres como máximo (los caracteres no latinos cuentan como 2).',
        '«Nuevo grupo» crea un grupo fijo en el nivel superior o bajo un grupo superior. Haga clic derecho en un grupo para cambiarle el nombre, añadir un subgrupo, eliminarlo o cambiar a él su propio grupo de conversación.',
      ],
    },
    {
      id: 'terminals',
      title: 'Gestión de terminales',
      body: [
        'Haga clic derecho en un terminal (o use los botones del panel de información) para cambiarle el nombre, moverlo a otro grupo, cambiar su grupo actual a distancia, asignarle un avatar o aturdirlo, bloquearlo y reactivarlo. Estas tres últimas acciones siempre piden confirmación.',
        'Aturdir bloquea un terminal temporalmente y bloquear lo hace de forma permanente; reactivar lo devuelve a la normalidad.',
      ],
    },
    {
      id: 'log',
      title: 'Registro de operaciones y ventanas adicionales',
      body: [
        'El registro de operaciones muestra los eventos más recientes (terminales que se conectan y desconectan, cambios de grupo, ajustes de llamada…) en el momento en que ocurren. El historial completo con filtros está en la pantalla Registros.',
        '«Nueva ventana» abre una pantalla en una ventana aparte del navegador para un segundo monitor. Las ventanas adicionales siguen conectadas por su cuenta.',
      ],
    },
    {
      id: 'voice',
      title: 'Hablar (pulsar para hablar)',
      body: [
        'Mantén pulsada la barra espaciadora, o el botón PTT del panel de voz abajo a la derecha, para hablar a tu grupo de conversación actual; suéltalo para escuchar. La tecla rápida se cambia en Ajustes y también funciona en las ventanas adicionales.',
        'El panel de voz muestra las llamadas abiertas: quién habla y desde cuándo, y el tiempo de acceso medido. Quien habla se resalta en el árbol. Un terminal en SOS siempre obtiene el turno primero; un despachador le quita el turno a un terminal.',
        'Desde el menú de un terminal puedes llamarlo solo a él (suena hasta que contesta) o escuchar su micrófono en silencio. "Llamada temporal" llama a los terminales marcados; "Llamada general" y "Difusión" llegan a todos los terminales, y a una difusión no se puede responder.',
        'Supervisa grupos desde el menú de grupo para oír varios a la vez. Cuando dos hablan al mismo tiempo, la prioridad de reproducción de audio de Ajustes decide cuál oyes: el último en hablar, primero tu propio grupo o primero los despachadores; el otro aparece como hablando y un clic basta para cambiar a él.',
        'Registros de voz muestra cada intervención por intervalo de tiempo, terminal, grupo y tipo de llamada; reprodúcela en la lista o descárgala. Las grabaciones de definición estándar (SD) no se pueden reproducir ni descargar.',
      ],
    },
    {
      id: 'map',
      title: 'Mapa y recorridos',
      body: [
        'GPS y mapa muestra cada terminal con posición: verde conectado, gris desconectado, azul hablando, rojo en SOS, atenuado cuando la posición es antigua. Al alejar, los marcadores se agrupan; pasa el puntero sobre un grupo para ver sus terminales y haz clic en un terminal para ver sus datos, llamarlo, escribirle o ver su recorrido.',
        'Las herramientas miden distancias y áreas, cambian el proveedor y el tema del mapa y listan los terminales visibles. Si no se pueden cargar las teselas, se muestra un mapa del mundo integrado.',
        'Geocercas: dibuja un polígono, un círculo o un rectángulo, ponle nombre, elige "dentro" (alarma al salir) o "fuera" (alarma al entrar) y asigna terminales. Cada cruce genera una alarma de geocerca con sonido.',
        'Recorrido: elige un terminal y un intervalo dentro de un mismo mes natural para ver su ruta con distancia, velocidades y paradas, y reprodúcela hasta 20 veces más rápido.',
      ],
    },
    {
      id: 'messages',
      title: 'Mensajes, tonos y multimedia',
      body: [
        'Mensajes muestra una conversación por terminal y por grupo, con los no leídos. Escribe texto o adjunta fotos y archivos (una barra muestra la subida) y sigue cada mensaje de enviado a entregado. Un mensaje a un terminal desconectado se guarda y se entrega cuando vuelve.',
        'Los tonos son avisos sonoros breves: añade uno con un sonido y un icono y envíalo a terminales o a un grupo.',
        'La nube multimedia muestra las fotos, vídeos y grabaciones que suben los terminales, filtrados por terminal y fecha; abre uno para verlo o descargarlo.',
      ],
    },
    {
      id: 'alarms',
      title: 'Alarmas SOS',
      body: [
        'Un SOS interrumpe lo que estés haciendo: suena una alarma en bucle al volumen de alarma y el navegador muestra una notificación, aunque la pestaña esté en segundo plano. Confírmala para detener el sonido; mientras nadie lo haga, se vuelve a anunciar.',
        'Desde la alarma puedes ver el terminal en el mapa, llamarlo, escucharlo y cerrar la alarma con una observación; se avisa al terminal para que deje de alarmar. Gestión de SOS muestra las alarmas actuales y pasadas con filtros.',
      ],
    },
    {
      id: 'lonework',
      title: 'Trabajadores aislados',
      body: [
        'Un plan de trabajador aislado comprueba de uno a cuatro terminales a intervalos fijos durante un periodo de trabajo. A cada terminal se le pide que confirme; si no responde a tiempo, se desconecta, se queda sin batería, tiene poca señal o está ocupado, aparece una alarma con ese motivo. Un plan no se puede modificar mientras está en curso, en alarma o terminado.',
      ],
    },
    {
      id: 'reports',
      title: 'Informes',
      body: [
        'Informes abre las pantallas de informes: gráficos y listas de alarmas SOS, alarmas de trabajador aislado, alarmas de geocerca, datos GPS y datos de mensajes. Cada una busca como máximo un mes natural y exporta a Excel.',
      ],
    },
    {
      id: 'settings',
      title: 'Ajustes, idiomas y apariencia',
      body: [
        'Los ajustes incluyen las teclas rápidas, los sonidos y volúmenes, el tipo de mapa, la prioridad de reproducción de audio, el idioma y la apariencia. Las elecciones se guardan en este navegador.',
        'Apariencias: oscuro, claro, plata lunar y negro fantasma, con los colores principales azul, verde, mar Rojo, verde azulado y naranja de seguridad. Un dominio con marca propia puede fijar el color para todos.',
        'Idiomas: inglés, chino, turco, español, francés y ruso. La consola se abre en el idioma del navegador si es uno de ellos; si no, en inglés.',
      ],
    },
  ],
} satisfies Shape<typeof en>;
