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
