import type { Shape } from '../../../i18n/types';
import type en from './en-US';

export default {
  title: 'Kullanım kılavuzu',
  intro: 'Sevk konsolunun bu sürümünün neler yaptığı ve nasıl kullanılacağı.',
  sections: [
    {
      id: 'signin',
      title: 'Giriş',
      body: [
        '8 haneli sevk görevlisi hesabınızı ve şifrenizi girip Giriş yap’a basın. Konsolu yalnızca sevk görevlisi hesapları kullanabilir; bir terminal hesabı "hesap türü hatalı" uyarısıyla reddedilir.',
        '"Şifreyi hatırla" işaretliyse tarayıcı formu bir sonraki sefer doldurur. Şifre, bu tarayıcıdan hiç çıkmayan bir anahtarla şifrelenerek saklanır.',
        'Art arda beş hatalı şifreden sonra hesap 10 dakika kilitlenir. "Şifremi unuttum" hesaba bağlı e-posta adresine bir doğrulama kodu gönderir ve yeni şifre belirlemenizi sağlar.',
      ],
    },
    {
      id: 'shell',
      title: 'Ana pencere',
      body: [
        'Üstteki menü, hesabınızın kullanabileceği ekranları sabit bir sırayla listeler; daha az kullanılanlar "Diğer" altındadır. "Bu sürümde henüz yok" olarak işaretli ekranlar gelecek sürümler için ayrılmıştır.',
        'Sağ tarafta: canlı bağlantı ışığı (bağlıyken yeşil), dil, koyu/açık anahtarı, Ayarlar ve hesap menünüz (şifre değiştir, sürüm notları, bu kılavuz, çıkış).',
      ],
    },
    {
      id: 'tree',
      title: 'Gruplar ve terminaller',
      body: [
        'Sevk ekranı sabit gruplarınızı (alt gruplarıyla) ve geçici grupları gösterir. Her terminalde tür simgesi ve adı, çevrimiçiyken sinyal ve pil, engellendiğinde "Devre dışı" veya "Sersemletildi" etiketi, çevrimdışıyken son görülme zamanı yer alır. Nokta, o anda o grupta olan terminalleri gösterir.',
        'Her şey canlı güncellenir: çevrimiçi olan bir terminal sayfa yenilenmeden yeşile döner. En fazla 30 grup sekmeler hâlinde, daha fazlası kaydırılabilir tek bir ağaç olarak gösterilir.',
        'Arama kutusuyla bir terminali adına veya kimliğine göre bulun; anahtarlarla çevrimdışı terminalleri veya sevk görevlilerini gizleyin. Ayrıntılarını bilgi panelinde görmek için bir terminale tıklayın.',
      ],
    },
    {
      id: 'groups',
      title: 'Geçici ve sabit gruplar',
      body: [
        'Ağaçta terminalleri işaretleyip "Geçici grup"u seçerek geçici grup oluşturun. Adı zorunlu ve benzersizdir, en fazla 20 karakter olabilir (Latin alfabesi dışındaki karakterler 2 sayılır).',
        '"Yeni grup" en üst düzeyde veya bir üst grubun altında sabit grup oluşturur. Bir grubu yeniden adlandırmak, alt grup eklemek, silmek ya da kendi konuşma grubunuzu ona almak için gruba sağ tıklayın.',
      ],
    },
    {
      id: 'terminals',
      title: 'Terminal yönetimi',
      body: [
        'Bir terminale sağ tıklayarak (veya bilgi panelindeki düğmelerle) onu yeniden adlandırabilir, başka bir gruba taşıyabilir, mevcut grubunu uzaktan değiştirebilir, avatarını ayarlayabilir ya da sersemletebilir, devre dışı bırakabilir ve yeniden etkinleştirebilirsiniz. Bu son üç işlem her zaman onay ister.',
        'Sersemletme terminali geçici olarak, devre dışı bırakma kalıcı olarak engeller; yeniden etkinleştirme normale döndürür.',
      ],
    },
    {
      id: 'log',
      title: 'İşlem kaydı ve ek pencereler',
      body: [
        'İşlem kaydı en yeni olayları (terminallerin çevrimiçi/çevrimdışı olması, grup değişiklikleri, çağrı ayarları…) gerçekleştikçe gösterir. Filtreli tam geçmiş Kayıtlar ekranındadır.',
        '"Yeni pencere" bir ekranı ikinci monitör için ayrı bir tarayıcı penceresinde açar. Ek pencereler kendi başlarına bağlı kalır.',
      ],
    },
    {
      id: 'settings',
      title: 'Ayarlar, diller ve görünüm',
      body: [
        'Ayarlar; kısayol tuşlarını, sesleri ve ses düzeylerini, harita türünü, ses çalma önceliğini, dili ve görünümü içerir. Seçimler bu tarayıcıda saklanır.',
        'Görünümler: koyu, açık, ay gümüşü ve hayalet siyahı; ana renkler mavi, yeşil, kızıldeniz, camgöbeği ve güvenlik turuncusu. Kendi markası olan bir alan adı rengi herkes için belirleyebilir.',
        'Diller: İngilizce, Çince, Türkçe, İspanyolca, Fransızca ve Rusça. Tarayıcınızın dili bunlardan biriyse konsol o dilde, değilse İngilizce açılır.',
      ],
    },
  ],
} satisfies Shape<typeof en>;
